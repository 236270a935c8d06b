/**
 * /admin-only/inquiries: the inquiries, bug reports and suggestions sent from /contact
 * (docs/product.md §2, §3.8 Inquiry), newest first, each with its text as written (line breaks
 * kept), the sender's e-mail when given and the time in KST.
 *
 * An inquiry that left an e-mail can be replied to once: the reply form (contract InquiryReplySchema,
 * conform on both sides) stores the reply and the api e-mails it; a refused reply comes back to
 * its form as typed, with the reason. One replied to shows 답변함, when, and the reply. Without an
 * e-mail there is nowhere to send a reply; while e-mail is off (GET /api/admin/mail) no form is offered.
 *
 * Each can be deleted on its sender's request (a sender may ask for their data to be erased:
 * privacy policy 제7조), the way the admin pages delete (admin-only.ads.edit.$type.tsx): delete → a
 * confirm dialog (?delete=id) → the call (the action; the api audits it) → a completion dialog from
 * the flash cookie. The dialogs live in the URL and the cookie, so every step works without
 * JavaScript too.
 */
import { getFormProps, useForm, type SubmissionResult } from '@conform-to/react';
import { getZodConstraint, parseWithZod } from '@conform-to/zod';
import { json, type ActionFunctionArgs, type AppLoadContext, type LoaderFunctionArgs } from '@remix-run/node';
import { Form, Link, useActionData, useLoaderData, useNavigation, type MetaFunction } from '@remix-run/react';
import { INQUIRY_REPLY_MAX, INQUIRY_REPLY_MESSAGES, InquiryReplySchema, type Inquiry } from '../../contract/inquiries';
import { AdminPage } from '~/components/admin/admin-page';
import { ListStates } from '~/components/admin/list-states';
import { CompletionDialog, ConfirmActions, Dialog } from '~/components/dialog';
import { SubmitButton, TextareaField } from '~/components/forms';
import { RouteError } from '~/components/route-error';
import { formatKstDateTime } from '../../contract/kst';
import { SITE_NAME } from '~/components/site-header';
import { deleteInquiry, listInquiries, replyToInquiry } from '~/models/inquiries.server';
import { getMailOverview } from '~/models/mail.server';
import { parseForm, readForm, serialIdOf, type FormSpec } from '~/utils/form-data.server';
import { redirectWithFlash, requireAdmin, takeFlash, type Admin } from '~/models/session.server';
import { rethrowUnlessUpstream } from '~/models/upstream.server';
import { formatCount } from '../../contract/korean-format';
import { consoleFor } from '../../lib/observability/request-tag';

const PAGE = '/admin-only/inquiries';
const LOAD_FAILED = '문의 목록을 불러오지 못했습니다.';
const DELETE_MESSAGES = {
  question: '이 문의를 삭제할까요?',
  irreversible: '삭제한 문의는 되돌릴 수 없습니다.',
  deleted: '문의를 삭제했습니다.',
  gone: '이미 삭제된 문의입니다.',
  failed: '문의를 삭제하지 못했습니다. 잠시 후 다시 시도해주세요.',
} as const;
/** The page's forms: a reply (its text), or a delete; each with its intent and the inquiry's id. */
const FIELDS: FormSpec = { schema: InquiryReplySchema, also: ['intent', 'id'] };
const REPLY_FAILED = '답변을 보내지 못했습니다. 잠시 후 다시 시도해주세요.';

/** A refused reply: the inquiry it was for, and its form's result (the text as typed, the reason). */
type ReplyRefused = { id: number; result: SubmissionResult<string[]> };

export async function loader({ request, context }: LoaderFunctionArgs) {
  const admin = await requireAdmin(request, context);
  const { flash, headers } = await takeFlash(context, admin);
  const asked = new URL(request.url).searchParams.get('delete');
  const mailOn = mailEnabled(context, admin.username);
  try {
    // Newest first, as the api answers them.
    const inquiries = await listInquiries(context, admin.username);
    // ?delete=id opens the confirm dialog, for an inquiry on the list only.
    const remove = !flash && inquiries.some((inquiry) => String(inquiry.id) === asked) ? Number(asked) : null;
    return json({ inquiries, flash, remove, mailEnabled: await mailOn }, { headers });
  } catch (error) {
    rethrowUnlessUpstream(error);
    consoleFor(context.reqId).error('[admin/inquiries] the list did not load:', error.message);
    return json({ inquiries: null, flash, remove: null, mailEnabled: await mailOn }, { status: 502, headers });
  }
}

/** Whether the api sends e-mail; null when it did not say (the form is offered, and a 409 tells). */
async function mailEnabled(context: AppLoadContext, actor: string): Promise<boolean | null> {
  try {
    return (await getMailOverview(context, actor)).enabled;
  } catch (error) {
    rethrowUnlessUpstream(error);
    consoleFor(context.reqId).error('[admin/inquiries] the e-mail state did not load:', error.message);
    return null;
  }
}

export async function action({ request, context }: ActionFunctionArgs) {
  const admin = await requireAdmin(request, context);
  const form = await readForm(request, FIELDS);
  const intent = form?.get('intent');
  const id = serialIdOf(form?.get('id'));
  if (!form || (intent !== 'delete' && intent !== 'reply') || id === null) {
    throw new Response('Bad request', { status: 400 });
  }
  return intent === 'reply' ? reply(context, admin, id, form) : remove(context, admin, id);
}

/** Sends the reply of `form` to inquiry `id`: the page with a flash, or the form back as typed with the reason. */
async function reply(context: AppLoadContext, admin: Admin, id: number, form: FormData) {
  const submission = parseForm(form, InquiryReplySchema);
  if (submission.status !== 'success') return json<ReplyRefused>({ id, result: submission.reply() }, { status: 400 });
  const refusedWith = (message: string, status: number) =>
    json<ReplyRefused>({ id, result: submission.reply({ formErrors: [message] }) }, { status });
  try {
    const sent = await replyToInquiry(context, admin.username, id, submission.value.reply);
    if (sent === null) return redirectWithFlash(context, admin, PAGE, { tone: 'error', message: DELETE_MESSAGES.gone });
    if (sent !== true) return refusedWith(sent.refused, 409);
  } catch (error) {
    rethrowUnlessUpstream(error);
    consoleFor(context.reqId).error(`[admin/inquiries] reply ${id}:`, error.message);
    return refusedWith(REPLY_FAILED, 502);
  }
  return redirectWithFlash(context, admin, PAGE, { tone: 'success', message: INQUIRY_REPLY_MESSAGES.sent });
}

async function remove(context: AppLoadContext, admin: Admin, id: number) {
  try {
    const deleted = await deleteInquiry(context, admin.username, id);
    const flash = deleted
      ? ({ tone: 'success', message: DELETE_MESSAGES.deleted } as const)
      : ({ tone: 'error', message: DELETE_MESSAGES.gone } as const);
    return redirectWithFlash(context, admin, PAGE, flash);
  } catch (error) {
    rethrowUnlessUpstream(error);
    consoleFor(context.reqId).error(`[admin/inquiries] delete ${id}:`, error.message);
    return redirectWithFlash(context, admin, PAGE, { tone: 'error', message: DELETE_MESSAGES.failed });
  }
}

export default function Inquiries() {
  const { inquiries, flash, remove, mailEnabled } = useLoaderData<typeof loader>();
  const refused = useActionData<typeof action>();
  const removing = remove === null ? null : inquiries?.find((inquiry) => inquiry.id === remove);
  return (
    <AdminPage id="inquiries" title="문의 목록">
      {mailEnabled === false && (
        <p className="notice notice--warn">
          {INQUIRY_REPLY_MESSAGES.mailOff} 설정 방법은 <Link to="/admin-only/mail">메일 발송</Link>에 있습니다.
        </p>
      )}
      <ListStates items={inquiries} failed={LOAD_FAILED} empty="접수된 문의가 없습니다.">
        {(inquiries) => (
          <>
            <p className="field__hint">최근 문의 {inquiries.length}건, 최신순</p>
            <ol className="inquiry-list">
              {inquiries.map((inquiry) => (
                <li key={inquiry.id}>
                  <article className="inquiry" aria-labelledby={`inquiry-${inquiry.id}`}>
                    <h2 id={`inquiry-${inquiry.id}`} className="inquiry__meta">
                      <time dateTime={inquiry.createdAt}>{formatKstDateTime(inquiry.createdAt)}</time>
                      <span className="sr-only"> 문의</span>
                    </h2>
                    <p className="inquiry__email">
                      이메일: {inquiry.email ? <a href={`mailto:${inquiry.email}`}>{inquiry.email}</a> : '(없음)'}
                    </p>
                    {inquiry.locale === 'en' && (
                      <p className="field__hint">
                        영어 페이지에서 보낸 문의입니다. 답변 메일의 안내 문구는 영어로 나갑니다.
                      </p>
                    )}
                    <p className="inquiry__content">{inquiry.content}</p>
                    <ReplyPart
                      inquiry={inquiry}
                      mailEnabled={mailEnabled}
                      refused={refused?.id === inquiry.id ? refused.result : undefined}
                    />
                    <p>
                      <Link to={`${PAGE}?delete=${inquiry.id}`} className="button button--small" preventScrollReset>
                        삭제<span className="sr-only"> {formatKstDateTime(inquiry.createdAt)} 문의</span>
                      </Link>
                    </p>
                  </article>
                </li>
              ))}
            </ol>
          </>
        )}
      </ListStates>
      {removing && (
        <Dialog
          title={DELETE_MESSAGES.question}
          closeTo={PAGE}
          message={`${formatKstDateTime(removing.createdAt)}에 받은 문의입니다. ${DELETE_MESSAGES.irreversible}`}
        >
          <ConfirmActions page={PAGE} intent="delete" id={removing.id} cancelLabel="취소" confirmLabel="삭제" />
        </Dialog>
      )}
      {flash && <CompletionDialog flash={flash} closeTo={PAGE} />}
    </AdminPage>
  );
}

/**
 * The reply of an inquiry: 답변함 with when and what; no e-mail, nowhere to send a reply; else its form
 * while e-mail is not known to be off. A refused reply's form stays, whatever the page now says.
 */
function ReplyPart({
  inquiry,
  mailEnabled,
  refused,
}: {
  inquiry: Inquiry;
  mailEnabled: boolean | null;
  refused: SubmissionResult<string[]> | undefined;
}) {
  const open = inquiry.email !== null && inquiry.repliedAt === null && mailEnabled !== false;
  return (
    <>
      {inquiry.repliedAt && (
        <div className="inquiry__reply">
          <p className="inquiry__meta">
            <span className="badge">답변함</span>{' '}
            <time dateTime={inquiry.repliedAt}>{formatKstDateTime(inquiry.repliedAt)}</time>
          </p>
          <p className="inquiry__content">{inquiry.reply}</p>
        </div>
      )}
      {!inquiry.email && <p className="field__hint">{INQUIRY_REPLY_MESSAGES.noEmail}</p>}
      {(open || refused) && <ReplyForm inquiry={inquiry} refused={refused} />}
    </>
  );
}

function ReplyForm({ inquiry, refused }: { inquiry: Inquiry; refused: SubmissionResult<string[]> | undefined }) {
  const navigation = useNavigation();
  const sending = navigation.state === 'submitting' && navigation.formData?.get('id') === String(inquiry.id);
  const [form, fields] = useForm({
    id: `reply-${inquiry.id}`,
    lastResult: sending ? undefined : refused,
    constraint: getZodConstraint(InquiryReplySchema),
    shouldValidate: 'onBlur',
    shouldRevalidate: 'onInput',
    onValidate: ({ formData }) => parseWithZod(formData, { schema: InquiryReplySchema }),
  });
  const formError = form.errors?.[0];
  return (
    <Form method="post" action={PAGE} {...getFormProps(form)} className="form inquiry__reply-form" preventScrollReset>
      <input type="hidden" name="intent" value="reply" />
      <input type="hidden" name="id" value={inquiry.id} />
      <div role="alert">{formError && <p className="admin-error">{formError}</p>}</div>
      <TextareaField
        meta={fields.reply}
        label="답변"
        rows={4}
        hint={
          <>
            {/* Anyone can type any address into /contact: the admin is told before writing to it. */}
            <strong>답변은 문의자가 적은 주소({inquiry.email})로 보내집니다.</strong> 이 주소가 문의자 본인의 것인지는
            확인되지 않았으니 개인정보나 민감한 내용은 적지 마세요. 한 번만 보낼 수 있고,{' '}
            {formatCount(INQUIRY_REPLY_MAX)}자까지 쓸 수 있습니다.
          </>
        }
      />
      <div>
        <SubmitButton pending={sending} pendingText="보내는 중…">
          답변 보내기<span className="sr-only"> {formatKstDateTime(inquiry.createdAt)} 문의</span>
        </SubmitButton>
      </div>
    </Form>
  );
}

export const meta: MetaFunction = () => [{ title: `문의 목록 | ${SITE_NAME}` }, { name: 'robots', content: 'noindex' }];

export function ErrorBoundary() {
  return <RouteError />;
}
