/**
 * /contact: inquiries, bug reports and suggestions (docs/product.md §2.7 Inquiry screen, §3.8 Inquiry, §5, §8).
 * One form with content (required, at most 2,000 characters) and an optional e-mail,
 * parsed by conform in the browser and again by the action with the api's own schema (contract
 * InquiryRequestSchema), then sent to POST /api/inquiries. A taken inquiry redirects to
 * /contact?sent=1 (post/redirect/get: an empty form and the docs/product.md §8 success message); a failure
 * keeps the text. A honeypot (app/utils/honeypot.server.ts) drops a bot's post while answering it
 * like a success; a form whose signed token no longer passes (over 2 hours old, SESSION_SECRET
 * rotated) is refused with the failure message instead, its text kept. Works without JavaScript.
 * In the page's language (docs/product.md §1 Languages; ADR 032): the words and the checks' messages
 * from the contact catalog, in the browser and in the action (the request's language,
 * localeOfRequest, never a form field), which sends that language with the inquiry; the api's own
 * refusals stay Korean.
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
import {
  INQUIRY_CHECK_MESSAGES,
  INQUIRY_CONTENT_MAX,
  inquiryFormSchema,
  type InquiryCheckMessages,
} from '../../contract/inquiries';
import { normalizeLineBreaks } from '../../contract/text';
import { ErrorSummary, SubmitButton, TextareaField, TextField } from '~/components/forms';
import { HoneypotInputs } from '~/components/honeypot-inputs';
import { RouteError } from '~/components/route-error';
import { localeOfRequest } from '~/i18n/locale.server';
import { metaT, translator, useT, type MessageParams } from '~/i18n/i18n';
import { richText } from '~/i18n/rich-text';
import common from '~/i18n/compiled/ko/common.js';
import contact from '~/i18n/compiled/ko/contact.js';
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
/** The form's fields: the inquiry's (the page's locale is not one) and the anti-spam pair. */
const FIELDS: FormSpec = {
  schema: inquiryFormSchema(INQUIRY_CHECK_MESSAGES),
  also: [HONEYPOT_FIELD, HONEYPOT_TOKEN_FIELD],
};
/** Where a taken inquiry sends the browser (post/redirect/get: a reload does not send it again). */
const SENT_URL = '/contact?sent=1';
/** Remaining characters from which the live region speaks (once), so typing is not read out key by key. */
const NEAR_LIMIT = 100;
/** The form's fields in the order the error summary lists them. */
const FIELD_ORDER = ['content', 'email'] as const;

type ActionData = { result: SubmissionResult<string[]> };
/** The contact catalog's formatter in the page's language. */
type ContactT = (key: keyof typeof contact, params?: MessageParams) => string;

/** The checks' messages (docs/product.md §5.3, §8) in `t`'s language, for inquiryFormSchema. */
function checkMessages(t: ContactT): InquiryCheckMessages {
  return {
    contentRequired: t('contact.contentRequired'),
    contentTooLong: t('contact.contentTooLong', { max: formatCount(INQUIRY_CONTENT_MAX) }),
    invalidCharacter: t('contact.invalidCharacter'),
    emailOneLine: t('contact.emailOneLine'),
    badEmail: t('contact.badEmail'),
  };
}

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
  const locale = localeOfRequest(request);
  const t = await translator(locale, contact);
  const formData = await readForm(request, FIELDS);
  if (!formData) return json<ActionData>({ result: refusedForm(t('contact.failed')) }, { status: 400 });
  const honeypot = checkHoneypot(context, FORM_ID, formData);
  if (honeypot.verdict === 'bot') {
    // Answered like a success, so a bot learns nothing; only the fact is logged.
    consoleFor(context.reqId).warn('[contact] a post caught by the honeypot was dropped.');
    return redirect(SENT_URL, 303);
  }
  const submission = parseForm(formData, inquiryFormSchema(checkMessages(t)));
  if (honeypot.verdict === 'stale') {
    consoleFor(context.reqId).warn('[contact] a post whose honeypot token did not pass was refused:', honeypot.reason);
    // The token did not pass: a page left open past its 2 hours, rendered before SESSION_SECRET
    // changed, or forged. reply() keeps what was typed and the page's loader renders a fresh token
    // with it, so the person sends again as it is (reloading could lose the text).
    const result = submission.reply({ formErrors: [t('contact.failed'), t('contact.sendAgain')] });
    return json<ActionData>({ result }, { status: 400 });
  }
  if (submission.status !== 'success') {
    return json<ActionData>({ result: submission.reply() }, { status: 400 });
  }
  try {
    await submitInquiry(context, { ...submission.value, locale });
  } catch (error) {
    rethrowUnlessUpstream(error);
    consoleFor(context.reqId).error('[contact] the inquiry was not taken:', error.message);
    const limited = error.status === 429;
    // reply() keeps what was typed: the form comes back with the text in it, and a sentence on
    // when to send again (over the api's limit, or the api failed or could not be reached).
    const result = submission.reply({
      formErrors: [t('contact.failed'), t(limited ? 'contact.rateLimited' : 'contact.retryLater')],
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
  const t = useT(contact);
  const name = useT(common)('site.name');
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
      <h1 className="page__title">{t('contact.title')}</h1>
      <p className="page__lead">
        {richText(t('contact.lead', { name }), { privacy: (words) => <Link to="/privacypolicy">{words}</Link> })}
      </p>

      <div aria-live="polite" role="status" className="form-status">
        {sent && typingAt !== location.key && (
          <p className="form-status__success" tabIndex={-1} ref={sentMessage}>
            {t('contact.submitted')}
          </p>
        )}
      </div>

      <InquiryForm key={location.key} honeypot={honeypot} onInput={() => setTypingAt(location.key)} />
    </div>
  );
}

/** The form, its error summary and the character count; `onInput` runs on each edit of a field. */
function InquiryForm({ honeypot, onInput }: { honeypot: HoneypotFields; onInput: () => void }) {
  const t = useT(contact);
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
    onValidate: ({ formData }) => parseWithZod(formData, { schema: inquiryFormSchema(checkMessages(t)) }),
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
          <p>
            {formErrorDetail} {t('contact.kept')}
          </p>
        </div>
      ) : (
        <ErrorSummary title={t('contact.checkTitle')} errors={summary} />
      )}

      <Form method="post" action="/contact" {...getFormProps(form)} onInput={onInput} className="form">
        <HoneypotInputs fields={honeypot} />
        <TextareaField
          meta={fields.content}
          label={t('contact.contentLabel')}
          rows={8}
          hint={
            <>
              {t('contact.contentHint', { max: formatCount(INQUIRY_CONTENT_MAX) })}
              {hydrated && (
                <span className={remaining <= NEAR_LIMIT ? 'char-count char-count--near' : 'char-count'}>
                  {' '}
                  {t('contact.typed', { count: formatCount(typed) })}
                </span>
              )}
            </>
          }
        />
        <p className="char-count__notice" aria-live="polite">
          {hydrated ? limitNotice(remaining, t) : ''}
        </p>
        <TextField
          meta={fields.email}
          label={t('contact.emailLabel')}
          optional
          hint={t('contact.emailHint')}
          inputProps={{ type: 'email', autoComplete: 'email' }}
        />
        <SubmitButton pending={pending} pendingText={t('contact.sending')}>
          {t('contact.send')}
        </SubmitButton>
      </Form>
    </>
  );
}

/**
 * What the live region says about the limit: nothing until NEAR_LIMIT characters remain, then one
 * sentence, and one more at the limit (the exact count is in the hint, read with the textarea), in `t`'s language.
 */
function limitNotice(remaining: number, t: ContactT): string {
  if (remaining <= 0) return t('contact.limitReached', { max: formatCount(INQUIRY_CONTENT_MAX) });
  if (remaining <= NEAR_LIMIT) return t('contact.nearLimit', { near: NEAR_LIMIT });
  return '';
}

export const meta: MetaFunction = ({ matches }) => {
  const t = metaT(matches, contact);
  const name = metaT(matches, common)('site.name');
  return [
    { title: `${t('contact.title')} — ${name}` },
    { name: 'description', content: t('contact.description', { name }) },
  ];
};

export function ErrorBoundary() {
  return <RouteError />;
}
