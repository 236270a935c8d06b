/**
 * /contact: inquiries, bug reports and suggestions (docs/product.md §2.7 Inquiry screen, §3.8 Inquiry, §5, §8).
 * One form with content (required, at most 2,000 characters) and an optional e-mail,
 * parsed by conform in the browser and again by the action with the api's own schema (contract
 * InquiryRequestSchema), then sent to POST /api/inquiries. A taken inquiry redirects to
 * /contact?sent=1 (post/redirect/get: an empty form and the docs/product.md §8 success message); a failure
 * keeps the text. A honeypot (app/utils/honeypot.server.ts) drops a bot's post while answering it
 * like a success; a form whose signed token no longer passes (over 2 hours old, SESSION_SECRET
 * rotated) is refused with the failure message instead, its text kept. Works without JavaScript.
 */
import { getFormProps, useForm, type SubmissionResult } from '@conform-to/react';
import { parseWithZod } from '@conform-to/zod';
import { json, redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from '@remix-run/node';
import {
  Form,
  Link,
  NavigationType,
  useActionData,
  useLoaderData,
  useLocation,
  useNavigation,
  useNavigationType,
  useSearchParams,
  type MetaFunction,
  type ShouldRevalidateFunction,
} from '@remix-run/react';
import { useEffect, useRef, useState } from 'react';
import { INQUIRY_CONTENT_MAX, INQUIRY_MESSAGES, InquiryRequestSchema } from '../../contract/inquiries';
import { normalizeLineBreaks } from '../../contract/text';
import { ErrorSummary, SubmitButton, TextareaField, TextField } from '~/components/forms';
import { HoneypotInputs } from '~/components/honeypot-inputs';
import { RouteError } from '~/components/route-error';
import { SITE_NAME } from '~/components/site-header';
import { submitInquiry } from '~/models/inquiries.server';
import { parseForm, readForm, refusedForm, type FormSpec } from '~/utils/form-data.server';
import {
  checkHoneypot,
  HONEYPOT_FIELD,
  HONEYPOT_TOKEN_FIELD,
  honeypotFields,
  type HoneypotFields,
} from '~/utils/honeypot.server';
import { rethrowUnlessUpstream } from '~/models/upstream.server';
import { useHydrated } from '~/hooks/use-hydrated';
import { formatCount } from '../../contract/korean-format';
import { consoleFor } from '../../lib/observability/request-tag';

const FORM_ID = 'inquiry';
/** The form's fields: the inquiry's and the anti-spam pair. */
const FIELDS: FormSpec = { schema: InquiryRequestSchema, also: [HONEYPOT_FIELD, HONEYPOT_TOKEN_FIELD] };
/** Where a taken inquiry sends the browser (post/redirect/get: a reload does not send it again). */
const SENT_URL = '/contact?sent=1';
/** What follows the docs/product.md §8 failure message when the api failed or could not be reached. */
const RETRY_LATER = '잠시 후 다시 보내주세요.';
/**
 * What follows it when the form's honeypot token did not pass (a page left open past its 2 hours, or rendered before
 * SESSION_SECRET changed, or a forged one). The answer itself carries a fresh form with the text
 * kept, so the person sends again as it is; reloading could lose the text.
 */
const SEND_AGAIN = '페이지가 오래되어 새로 불러왔습니다. 한 번 더 보내주세요.';
/** Remaining characters from which the live region speaks (once), so typing is not read out key by key. */
const NEAR_LIMIT = 100;
/** The form's fields in the order the error summary lists them. */
const FIELD_ORDER = ['content', 'email'] as const;

type ActionData = { result: SubmissionResult<string[]> };

export async function loader({ context }: LoaderFunctionArgs) {
  return json({ honeypot: honeypotFields(context, FORM_ID) });
}

/**
 * After every submission, a refused one (400) too, the loader runs again: a stale honeypot token is
 * answered with a fresh one. (Single fetch leaves loaders alone after a 4xx unless asked.)
 */
export const shouldRevalidate: ShouldRevalidateFunction = ({ formMethod, defaultShouldRevalidate }) =>
  formMethod === 'POST' || defaultShouldRevalidate;

export async function action({ request, context }: ActionFunctionArgs) {
  const formData = await readForm(request, FIELDS);
  if (!formData) return json<ActionData>({ result: refusedForm(INQUIRY_MESSAGES.failed) }, { status: 400 });
  const honeypot = checkHoneypot(context, FORM_ID, formData);
  if (honeypot.verdict === 'bot') {
    // Answered like a success, so a bot learns nothing; only the fact is logged.
    consoleFor(context.reqId).warn('[contact] a post caught by the honeypot was dropped.');
    return redirect(SENT_URL, 303);
  }
  const submission = parseForm(formData, InquiryRequestSchema);
  if (honeypot.verdict === 'stale') {
    consoleFor(context.reqId).warn('[contact] a post whose honeypot token did not pass was refused:', honeypot.reason);
    // reply() keeps what was typed; the page's loader renders a fresh honeypot token with it.
    const result = submission.reply({ formErrors: [INQUIRY_MESSAGES.failed, SEND_AGAIN] });
    return json<ActionData>({ result }, { status: 400 });
  }
  if (submission.status !== 'success') {
    return json<ActionData>({ result: submission.reply() }, { status: 400 });
  }
  try {
    await submitInquiry(context, submission.value);
  } catch (error) {
    rethrowUnlessUpstream(error);
    consoleFor(context.reqId).error('[contact] the inquiry was not taken:', error.message);
    const limited = error.status === 429;
    // reply() keeps what was typed: the form comes back with the text in it.
    const result = submission.reply({
      formErrors: [INQUIRY_MESSAGES.failed, limited ? INQUIRY_MESSAGES.rateLimited : RETRY_LATER],
    });
    return json<ActionData>({ result }, { status: limited ? 429 : 502 });
  }
  return redirect(SENT_URL, 303);
}

/**
 * The status region lives here, outside the form that every navigation (a refusal answered, or the
 * redirect after success) starts afresh from its answer: it is in the page before the success
 * message comes, so a screen reader announces the message when it appears.
 */
export default function Contact() {
  const { honeypot } = useLoaderData<typeof loader>();
  const location = useLocation();
  const actionData = useActionData<typeof action>();
  const sent = useSearchParams()[0].has('sent') && !actionData;
  // PUSH (from /contact) or REPLACE (from /contact?sent=1): the redirect that follows a send. POP:
  // the page loaded (a reload, without JavaScript) or reached by back/forward: no focus is moved.
  const navigationType = useNavigationType();
  const justSent = sent && navigationType !== NavigationType.Pop;
  // The location whose success message was put away because a new inquiry is being typed.
  const [typingAt, setTypingAt] = useState<string | null>(null);
  const sentMessage = useRef<HTMLParagraphElement>(null);

  useEffect(() => {
    // The send button went with the old form: focus goes to the message instead of the page's body.
    if (justSent) sentMessage.current?.focus();
  }, [justSent, location.key]);

  return (
    <div className="page contact">
      <h1 className="page__title">문의하기</h1>
      <p className="page__lead">
        {SITE_NAME}를 쓰면서 궁금한 점, 발견한 오류, 바라는 기능이 있으면 알려주세요. 답장을 원하시면 이메일을 함께
        적어주세요. 이메일은 답장하는 데에만 씁니다(<Link to="/privacypolicy">개인정보 처리방침</Link>).
      </p>

      <div aria-live="polite" role="status" className="form-status">
        {sent && typingAt !== location.key && (
          <p className="form-status__success" tabIndex={-1} ref={sentMessage}>
            {INQUIRY_MESSAGES.submitted}
          </p>
        )}
      </div>

      <InquiryForm key={location.key} honeypot={honeypot} onInput={() => setTypingAt(location.key)} />
    </div>
  );
}

/** The form, its error summary and the character count; `onInput` runs on each edit of a field. */
function InquiryForm({ honeypot, onInput }: { honeypot: HoneypotFields; onInput: () => void }) {
  const actionData = useActionData<typeof action>();
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
    <>
      {formError ? (
        <div className="error-summary" role="alert">
          <p className="error-summary__title">{formError}</p>
          <p>{formErrorDetail} 입력하신 내용은 그대로 남아 있습니다.</p>
        </div>
      ) : (
        <ErrorSummary title="입력한 내용을 확인해주세요" errors={summary} />
      )}

      <Form method="post" action="/contact" {...getFormProps(form)} onInput={onInput} className="form">
        <HoneypotInputs fields={honeypot} />
        <TextareaField
          meta={fields.content}
          label="문의 내용"
          rows={8}
          hint={
            <>
              {formatCount(INQUIRY_CONTENT_MAX)}자까지 쓸 수 있습니다.
              {hydrated && (
                <span className={remaining <= NEAR_LIMIT ? 'char-count char-count--near' : 'char-count'}>
                  {' '}
                  지금 {formatCount(typed)}자
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
    </>
  );
}

/**
 * What the live region says about the limit: nothing until NEAR_LIMIT characters remain, then one
 * sentence, and one more at the limit (the exact count is in the hint, read with the textarea).
 */
function limitNotice(remaining: number): string {
  if (remaining <= 0) return `${formatCount(INQUIRY_CONTENT_MAX)}자를 모두 썼습니다. 더 입력되지 않습니다.`;
  if (remaining <= NEAR_LIMIT) return `남은 글자가 ${NEAR_LIMIT}자 이하입니다.`;
  return '';
}

export const meta: MetaFunction = () => [
  { title: `문의하기 — ${SITE_NAME}` },
  { name: 'description', content: `${SITE_NAME}에 대한 문의, 오류 제보, 기능 제안을 보냅니다.` },
];

export function ErrorBoundary() {
  return <RouteError />;
}
