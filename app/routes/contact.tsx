/**
 * /contact: inquiries, bug reports and suggestions (spec §2 Inquiry screen, §3 Inquiry, §5, §8;
 * issue 8). One form with content (required, at most 2,000 characters) and an optional e-mail,
 * parsed by conform in the browser and again by the action with the api's own schema (contract
 * InquiryRequestSchema), then sent to POST /api/inquiries. A taken inquiry redirects to
 * /contact?sent=1 (post/redirect/get: an empty form and the spec §8 success message); a failure
 * keeps the text. A honeypot (remix-utils) drops simple bots' posts while answering them like a
 * success. Works without JavaScript.
 */
import { createHmac } from 'node:crypto';
import { getFormProps, useForm, type SubmissionResult } from '@conform-to/react';
import { parseWithZod } from '@conform-to/zod';
import { json, redirect, type ActionFunctionArgs, type AppLoadContext, type LoaderFunctionArgs } from '@remix-run/node';
import {
  Form,
  Link,
  useActionData,
  useLoaderData,
  useLocation,
  useNavigation,
  useSearchParams,
  type MetaFunction,
} from '@remix-run/react';
import { HoneypotInputs, HoneypotProvider } from 'remix-utils/honeypot/react';
import { Honeypot, SpamError } from 'remix-utils/honeypot/server';
import {
  INQUIRY_CONTENT_MAX,
  INQUIRY_MESSAGES,
  InquiryRequestSchema,
  normalizeLineBreaks,
} from '../../contract/inquiries';
import { ErrorSummary, SubmitButton, TextareaField, TextField } from '~/components/forms';
import { RouteError } from '~/components/route-error';
import { SITE_NAME } from '~/components/site-header';
import { submitInquiry } from '~/models/inquiries.server';
import { UpstreamError } from '~/utils/upstream.server';
import { useHydrated } from '~/utils/use-hydrated';

const FORM_ID = 'inquiry';
/** Where a taken inquiry sends the browser (post/redirect/get: a reload does not send it again). */
const SENT_URL = '/contact?sent=1';
/** What follows the spec §8 failure message when the api failed or could not be reached. */
const RETRY_LATER = '잠시 후 다시 보내주세요.';
/** Remaining characters from which the live region speaks (once), so typing is not read out key by key. */
const NEAR_LIMIT = 100;
/** The form's fields in the order the error summary lists them. */
const FIELD_ORDER = ['content', 'email'] as const;

type ActionData = { result: SubmissionResult<string[]> };

export async function loader({ context }: LoaderFunctionArgs) {
  return json({ honeypot: honeypotOf(context).getInputProps() });
}

export async function action({ request, context }: ActionFunctionArgs) {
  const formData = await request.formData();
  if (caughtByHoneypot(honeypotOf(context), formData)) {
    // Answered like a success, so a bot learns nothing; only the fact is logged.
    console.warn('[contact] a post caught by the honeypot was dropped.');
    return redirect(SENT_URL, 303);
  }
  const submission = parseWithZod(formData, { schema: InquiryRequestSchema });
  if (submission.status !== 'success') {
    return json<ActionData>({ result: submission.reply() }, { status: 400 });
  }
  try {
    await submitInquiry(context, submission.value);
  } catch (error) {
    if (!(error instanceof UpstreamError)) throw error;
    console.error('[contact] the inquiry was not taken:', error.message);
    const limited = error.status === 429;
    // reply() keeps what was typed: the form comes back with the text in it.
    const result = submission.reply({
      formErrors: [INQUIRY_MESSAGES.failed, limited ? INQUIRY_MESSAGES.rateLimited : RETRY_LATER],
    });
    return json<ActionData>({ result }, { status: limited ? 429 : 502 });
  }
  return redirect(SENT_URL, 303);
}

/** Every navigation (a refusal answered, or the redirect after success) starts the form afresh from its answer. */
export default function Contact() {
  const { honeypot } = useLoaderData<typeof loader>();
  return (
    <HoneypotProvider {...honeypot}>
      <InquiryForm key={useLocation().key} />
    </HoneypotProvider>
  );
}

function InquiryForm() {
  const actionData = useActionData<typeof action>();
  const sent = useSearchParams()[0].has('sent') && !actionData;
  const navigation = useNavigation();
  const hydrated = useHydrated();
  const pending = navigation.state === 'submitting' && navigation.formAction === '/contact';
  const [form, fields] = useForm({
    id: FORM_ID,
    lastResult: pending ? undefined : actionData?.result,
    // The textarea's maxlength: the browser stops at the api's limit (counted the same way).
    constraint: { content: { required: true, maxLength: INQUIRY_CONTENT_MAX } },
    shouldValidate: 'onBlur',
    shouldRevalidate: 'onInput',
    onValidate: ({ formData }) => parseWithZod(formData, { schema: InquiryRequestSchema }),
  });
  const text = fields.content.value;
  const typed = typeof text === 'string' ? normalizeLineBreaks(text).length : 0;
  const remaining = INQUIRY_CONTENT_MAX - typed;
  const summary =
    form.status === 'error'
      ? FIELD_ORDER.flatMap((name) => {
          const message = form.allErrors[name]?.[0];
          return message ? [{ fieldId: fields[name].id, message }] : [];
        })
      : [];
  const [formError, formErrorDetail] = form.status === 'error' ? (form.errors ?? []) : [];

  return (
    <div className="page contact">
      <h1 className="page__title">문의하기</h1>
      <p className="page__lead">
        {SITE_NAME}를 쓰면서 궁금한 점, 발견한 오류, 바라는 기능이 있으면 알려주세요. 답장을 원하시면 이메일을 함께
        적어주세요. 이메일은 답장하는 데에만 씁니다(<Link to="/privacypolicy">개인정보 처리방침</Link>).
      </p>

      <div aria-live="polite" role="status" className="form-status">
        {sent && <p className="form-status__success">{INQUIRY_MESSAGES.submitted}</p>}
      </div>
      {formError ? (
        <div className="error-summary" role="alert">
          <p className="error-summary__title">{formError}</p>
          <p>{formErrorDetail} 입력하신 내용은 그대로 남아 있습니다.</p>
        </div>
      ) : (
        <ErrorSummary title="입력한 내용을 확인해주세요" errors={summary} />
      )}

      <Form method="post" action="/contact" {...getFormProps(form)} className="form">
        <HoneypotInputs label="이 칸은 비워두세요" />
        <TextareaField
          meta={fields.content}
          label="문의 내용"
          rows={8}
          hint={
            <>
              {INQUIRY_CONTENT_MAX.toLocaleString('ko-KR')}자까지 쓸 수 있습니다.
              {hydrated && (
                <span className={remaining <= NEAR_LIMIT ? 'char-count char-count--near' : 'char-count'}>
                  {' '}
                  지금 {typed.toLocaleString('ko-KR')}자
                </span>
              )}
            </>
          }
        />
        <p className="char-count__notice" aria-live="polite">
          {hydrated ? limitNotice(remaining) : ''}
        </p>
        <TextField
          meta={fields.email}
          label="이메일"
          optional
          hint="답장이 필요할 때만 적어주세요."
          inputProps={{ type: 'email', autoComplete: 'email' }}
        />
        <SubmitButton pending={pending} pendingText="보내는 중...">
          문의 보내기
        </SubmitButton>
      </Form>
    </div>
  );
}

/**
 * What the live region says about the limit: nothing until NEAR_LIMIT characters remain, then one
 * sentence, and one more at the limit (the exact count is in the hint, read with the textarea).
 */
function limitNotice(remaining: number): string {
  if (remaining <= 0) return `${INQUIRY_CONTENT_MAX.toLocaleString('ko-KR')}자를 모두 썼습니다. 더 입력되지 않습니다.`;
  if (remaining <= NEAR_LIMIT) return `남은 글자가 ${NEAR_LIMIT}자 이하입니다.`;
  return '';
}

/** The fallback honeypot with remix-utils' default seed (see honeypotOf), made on first need. */
let processHoneypot: Honeypot | undefined;

/**
 * The honeypot of this form. Its time field is encrypted with a seed derived from the web's
 * SESSION_SECRET (HMAC, so the session key itself is not reused), the same in every web instance
 * and across restarts, so a form rendered by one instance passes the check in another. Without
 * the admin binding (tests) remix-utils' default applies: a random seed per Honeypot, hence one
 * for the process; a form rendered before a restart then fails the check and is dropped unseen.
 */
function honeypotOf(context: AppLoadContext): Honeypot {
  const secret = context.admin?.sessionSecret;
  if (secret) {
    return new Honeypot({
      encryptionSeed: createHmac('sha256', secret).update('campus-bus /contact honeypot').digest('hex'),
    });
  }
  processHoneypot ??= new Honeypot();
  return processHoneypot;
}

/**
 * Whether the post is a bot's: the hidden field filled, or the encrypted time field missing,
 * forged or in the future (remix-utils' check). remix-utils checks only when one of its fields
 * came; a post with neither is a script that never loaded the form, and is caught too.
 */
function caughtByHoneypot(honeypot: Honeypot, formData: FormData): boolean {
  const { nameFieldName, validFromFieldName } = honeypot.getInputProps();
  if (!formData.has(nameFieldName) || (validFromFieldName && !formData.has(validFromFieldName))) return true;
  try {
    honeypot.check(formData);
    return false;
  } catch (error) {
    // NOTE: a time field encrypted under another seed may make crypto-js throw its own Error
    // ('Malformed UTF-8 data') instead of remix-utils' SpamError: a forged field either way.
    if (!(error instanceof SpamError)) console.warn('[contact] honeypot check:', (error as Error).message);
    return true;
  }
}

export const meta: MetaFunction = () => [
  { title: `문의하기 — ${SITE_NAME}` },
  { name: 'description', content: '외대 버스에 대한 문의, 오류 제보, 기능 제안을 보냅니다.' },
];

export function ErrorBoundary() {
  return <RouteError />;
}
