/**
 * /admin-only/ads/{type}/confirm/{id}: one ad application with approve and reject (docs/product.md §2.10 Admin pages,
 * §4.5 Admin request detail, §7, §8), and delete, for an applicant who asks for their data to be
 * erased (privacy policy 제7조; any status). Approve, reject or delete → a confirm dialog
 * (?confirm=…) → the call (the action) → a completion dialog whose OK returns to the type's list.
 * The dialogs live in the URL and the flash cookie, so every step works without JavaScript too.
 */
import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from '@remix-run/node';
import { getFormProps, useForm } from '@conform-to/react';
import { getZodConstraint, parseWithZod } from '@conform-to/zod';
import { Link, useActionData, useLoaderData, type MetaFunction } from '@remix-run/react';
import { ADMIN_MESSAGES } from '../../contract/admin';
import {
  AD_IMAGE_SIZE,
  AD_TYPE_LABELS,
  AdTypeSchema,
  REJECT_REASON_MAX,
  RejectRequestSchema,
  type AdType,
} from '../../contract/ads';
import { DetailList } from '~/components/admin/detail-list';
import { TextareaField } from '~/components/forms';
import { CompletionDialog, ConfirmActions, Dialog } from '~/components/dialog';
import { RouteError } from '~/components/route-error';
import { SITE_NAME } from '~/components/site-header';
import { decideAdApplication, deleteAdApplication, getAdApplication } from '~/models/ads.server';
import { formatPhone } from '~/utils/ad-application';
import { isShowableImage, APPLICATION_STATUS_LABELS } from '~/utils/admin-ads';
import { parseForm, readForm, serialIdOf, type FormSpec } from '~/utils/form-data.server';
import { redirectWithFlash, requireAdmin, takeFlash } from '~/models/session.server';
import { UpstreamError, rethrowUnlessUpstream } from '~/models/upstream.server';
import { isHttpUrl } from '../../contract/links';
import { formatWon, priceWon } from '../../contract/prices';
import { consoleFor } from '../../lib/observability/request-tag';
import { formatKstDateTime } from '../../contract/kst';

type Decision = 'approve' | 'reject';
/** What the page's buttons do: decide a pending application, or delete one in any status. */
type Intent = Decision | 'delete';
/** Each intent's button, its confirm dialog's title and question, and what the completion dialog says. */
const INTENTS: Record<Intent, { label: string; title: string; question: string; done: string }> = {
  approve: {
    label: '승인',
    title: '광고 승인',
    question:
      '이 광고 요청을 승인할까요? 입금을 확인한 뒤에 승인해주세요. 승인하면 지금부터 게재 기간이 시작되고 광고 목록 맨 뒤에 추가됩니다.',
    done: ADMIN_MESSAGES.approved,
  },
  reject: {
    label: '거절',
    title: '광고 거절',
    question: '이 광고 요청을 거절할까요? 거절한 요청은 다시 승인할 수 없습니다.',
    done: ADMIN_MESSAGES.rejected,
  },
  delete: {
    label: '삭제',
    title: '광고 요청 삭제',
    question:
      '이 광고 요청을 삭제할까요? 신청자 정보와 광고 이미지가 지워지며 되돌릴 수 없습니다. ' +
      '게재 중인 광고가 쓰는 이미지는 그 광고에 남습니다.',
    done: '광고 요청을 삭제했습니다.',
  },
};
/** The application was deleted meanwhile (by another admin): the delete finds nothing. */
/** The page's forms: a decision or a delete (intent, the application's id), the reject dialog with its reason. */
const FIELDS: FormSpec = { schema: RejectRequestSchema, also: ['intent', 'id'] };
const DELETED_ALREADY = '이미 삭제된 요청입니다.';
const DELETE_FAILED = '광고 요청을 삭제하지 못했습니다. 잠시 후 다시 시도해주세요.';

const isIntent = (value: unknown): value is Intent => typeof value === 'string' && Object.hasOwn(INTENTS, value);

/** docs/product.md §8: the failure message of a decision (approve adds the server's message when there is one); ours for delete. */
function failureMessage(intent: Intent, error: UpstreamError): string {
  if (intent === 'delete') return DELETE_FAILED;
  if (intent === 'reject') return ADMIN_MESSAGES.rejectFailed;
  return error.serverMessage ? `${ADMIN_MESSAGES.approveFailed}: ${error.serverMessage}` : ADMIN_MESSAGES.approveFailed;
}

/** The type and id of the URL, or null (docs/product.md §2: any other type makes no call). */
function targetOf(params: LoaderFunctionArgs['params']): { type: AdType | null; id: number | null } {
  const type = AdTypeSchema.safeParse(params.type);
  const id = serialIdOf(params.id);
  return { type: type.success ? type.data : null, id };
}

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const admin = await requireAdmin(request, context);
  const { type, id } = targetOf(params);
  if (!type) {
    consoleFor(context.reqId).error(`[admin] ad application: invalid ad type "${params.type}"`);
    return json({ type: null, application: null, flash: null, confirm: null, bankAccountSet: false }, { status: 404 });
  }
  if (id === null) throw new Response('Not found', { status: 404 });
  const { flash, headers } = await takeFlash(context, admin);
  // Without AD_BANK_* the applicants learn the account from the reviewer (contract/ad-payment.ts).
  const bankAccountSet = Boolean(context.publicConfig?.bankAccount);
  const found = await getAdApplication(context, admin.username, type, id);
  // Just deleted: the page says so under the completion dialog.
  if (!found && flash) return json({ type, application: null, flash, confirm: null, bankAccountSet }, { headers });
  if (!found) throw new Response('Not found', { status: 404 });
  const asked = new URL(request.url).searchParams.get('confirm');
  const decidable = found.status === undefined || found.status === 'pending';
  const confirm = isIntent(asked) && !flash && (asked === 'delete' || decidable) ? asked : null;
  return json({ type, application: found, flash, confirm, bankAccountSet }, { headers });
}

export async function action({ request, context, params }: ActionFunctionArgs) {
  const admin = await requireAdmin(request, context);
  const { type, id } = targetOf(params);
  if (!type || id === null) throw new Response('Not found', { status: 404 });
  const formData = await readForm(request, FIELDS);
  const intent = formData?.get('intent') ?? null;
  if (!formData || !isIntent(intent)) throw new Response('Bad request', { status: 400 });
  const here = `/admin-only/ads/${type}/confirm/${id}`;
  try {
    if (intent === 'delete') {
      if (!(await deleteAdApplication(context, admin.username, { type, id }))) {
        return redirectWithFlash(context, admin, here, { tone: 'error', message: DELETED_ALREADY });
      }
    } else if (intent === 'reject') {
      // The reason's form is the reject dialog's: a refused one comes back to it, nothing lost.
      const submission = parseForm(formData, RejectRequestSchema);
      if (submission.status !== 'success') return json({ result: submission.reply() }, { status: 400 });
      await decideAdApplication(context, admin.username, {
        type,
        id,
        decision: 'reject',
        reason: submission.value.reason,
      });
    } else {
      await decideAdApplication(context, admin.username, { type, id, decision: intent });
    }
    return redirectWithFlash(context, admin, here, { tone: 'success', message: INTENTS[intent].done });
  } catch (error) {
    rethrowUnlessUpstream(error);
    consoleFor(context.reqId).error(`[admin] ${intent} ${type} application ${id}:`, error.message);
    return redirectWithFlash(context, admin, here, { tone: 'error', message: failureMessage(intent, error) });
  }
}

/** The back link to the type's application list and the page's heading (`#application-title`). */
function ApplicationHeading({ type, title }: { type: AdType; title: string }) {
  return (
    <>
      <p>
        <Link to={`/admin-only/ads/${type}`}>← {AD_TYPE_LABELS[type]} 요청 목록</Link>
      </p>
      <h1 id="application-title" className="admin-page__title">
        {title}
      </h1>
    </>
  );
}

export default function AdApplicationDetail() {
  const data = useLoaderData<typeof loader>();
  if (!data.type) {
    return (
      <section className="admin-page" aria-labelledby="application-title">
        <h1 id="application-title" className="admin-page__title">
          광고 요청
        </h1>
        <p className="admin-error" role="alert">
          {ADMIN_MESSAGES.invalidType}
        </p>
      </section>
    );
  }
  const { type, application, flash, confirm, bankAccountSet } = data;
  const listHref = `/admin-only/ads/${type}`;
  const completion = flash && <CompletionDialog flash={flash} closeTo={listHref} />;
  if (!application) {
    return (
      <section className="admin-page" aria-labelledby="application-title">
        <ApplicationHeading type={type} title="광고 요청" />
        <p>이 요청은 삭제되어 더 이상 볼 수 없습니다.</p>
        {completion}
      </section>
    );
  }
  const here = `${listHref}/confirm/${application.id}`;
  const pending = application.status === undefined || application.status === 'pending';
  const size = AD_IMAGE_SIZE[type];
  const rows: [string, string | null | undefined][] = [
    ['번호', String(application.id)],
    ['제목', application.title],
    ['신청자 이름', application.applicantName],
    ['전화번호', formatPhone(application.applicantPhone)],
    ['이메일', application.applicantEmail],
    ['게재 기간', `${application.duration}개월`],
    ['결제 금액', formatWon(priceWon(application.duration))],
    ['검토자에게 남긴 말', application.contentForManager || '(없음)'],
    ...(type === 'kakao' ? ([['광고 메시지', application.content || '(없음)']] as [string, string][]) : []),
    ...(application.status === 'rejected'
      ? ([['거절 사유', application.rejectReason || '(없음)']] as [string, string][])
      : []),
  ];
  return (
    <section className="admin-page" aria-labelledby="application-title">
      <ApplicationHeading type={type} title={application.title} />
      {application.status && (
        <p>
          <span className={`badge badge--${application.status}`}>{APPLICATION_STATUS_LABELS[application.status]}</span>
          {application.adTakenDownAt && (
            <> · 광고를 {formatKstDateTime(application.adTakenDownAt)}에 내렸습니다 (광고 게시 / 수정에서 삭제).</>
          )}
        </p>
      )}
      <DetailList rows={rows}>
        <div className="detail-list__row">
          <dt>연결 링크</dt>
          <dd className="detail-list__link">
            {application.redirectUrl ? (
              <>
                <span className="detail-list__url">{application.redirectUrl}</span>
                <LinkOpen url={application.redirectUrl} />
              </>
            ) : (
              '(없음)'
            )}
          </dd>
        </div>
        <div className="detail-list__row">
          <dt>이미지</dt>
          <dd>
            {isShowableImage(application.imageUrl) ? (
              <img
                src={application.imageUrl}
                alt={`${application.title} 광고 이미지`}
                width={size.width}
                height={size.height}
                className="detail-list__image"
              />
            ) : (
              ADMIN_MESSAGES.noImage
            )}
          </dd>
        </div>
      </DetailList>
      {pending && (
        <p className="field__hint">
          승인하기 전에 신청자 이름({application.applicantName})으로 {formatWon(priceWon(application.duration))}이
          입금되었는지 확인해주세요.
          {!bankAccountSet && (
            <>
              {' '}
              사이트에 입금 계좌가 설정되어 있지 않으므로(서버 설정 <code>AD_BANK_NAME</code> 등) 신청자 이메일로 입금
              계좌와 금액을 알려주세요. 신청 화면에서 담당자가 이메일로 알려준다고 안내했습니다.
            </>
          )}
        </p>
      )}
      {!pending && <p>이미 처리한 요청입니다.</p>}
      <div className="application-actions">
        {pending && (
          <>
            <Link to={`${here}?confirm=approve`} className="button button--primary" preventScrollReset>
              승인
            </Link>
            <Link to={`${here}?confirm=reject`} className="button" preventScrollReset>
              거절
            </Link>
          </>
        )}
        <Link to={`${here}?confirm=delete`} className="button" preventScrollReset>
          삭제
        </Link>
      </div>
      <p className="field__hint">삭제는 신청자가 개인정보 삭제를 요청했을 때, 본인인지 확인한 뒤에 해주세요.</p>
      {confirm === 'reject' ? (
        <RejectDialog page={here} />
      ) : (
        confirm && (
          <Dialog title={INTENTS[confirm].title} closeTo={here} message={INTENTS[confirm].question}>
            <ConfirmActions page={here} intent={confirm} cancelLabel="취소" confirmLabel={INTENTS[confirm].label} />
          </Dialog>
        )
      )}
      {completion}
    </section>
  );
}

/**
 * The reject step's confirm dialog, with the optional reason (docs/product.md §4.5; contract
 * RejectRequestSchema, conform on both sides). Its form posts to the dialog's own URL, so a refused
 * reason comes back in the open dialog as typed.
 */
function RejectDialog({ page }: { page: string }) {
  const actionData = useActionData<typeof action>();
  const { title, question, label } = INTENTS.reject;
  const [form, fields] = useForm({
    id: 'reject-reason',
    lastResult: actionData?.result,
    constraint: getZodConstraint(RejectRequestSchema),
    shouldValidate: 'onBlur',
    onValidate: ({ formData }) => parseWithZod(formData, { schema: RejectRequestSchema }),
  });
  return (
    <Dialog
      title={title}
      closeTo={page}
      message={question}
      body={
        <TextareaField
          meta={fields.reason}
          label="거절 사유"
          optional
          rows={4}
          form={form.id}
          hint={`신청 현황 페이지에 보이고, 이메일 발송이 켜져 있으면 신청자에게 이메일로도 전해집니다. ${REJECT_REASON_MAX}자까지 쓸 수 있습니다.`}
        />
      }
    >
      <ConfirmActions
        page={page}
        intent="reject"
        action={`${page}?confirm=reject`}
        formProps={getFormProps(form)}
        cancelLabel="취소"
        confirmLabel={label}
      />
    </Dialog>
  );
}

/** docs/product.md §2, §5: opens the redirect URL only when it is http(s); otherwise alerts 'invalid URL'. */
function LinkOpen({ url }: { url: string }) {
  if (isHttpUrl(url)) {
    return (
      <a href={url} target="_blank" rel="noopener noreferrer" className="button button--small">
        링크 열기<span className="sr-only"> (새 창)</span>
      </a>
    );
  }
  return (
    <>
      <button type="button" className="button button--small" onClick={() => window.alert(ADMIN_MESSAGES.invalidUrl)}>
        링크 열기
      </button>
      <noscript>
        <span className="admin-error"> {ADMIN_MESSAGES.invalidUrl}</span>
      </noscript>
    </>
  );
}

export const meta: MetaFunction = () => [{ title: `광고 요청 | ${SITE_NAME}` }, { name: 'robots', content: 'noindex' }];

export function ErrorBoundary() {
  return <RouteError />;
}
