/**
 * /ads/apply: the ad application (docs/product.md §2.5 Ad application page, §3, §4, §5, §7, §8, §9).
 * One form, one zod schema (app/utils/ad-application.ts) checked by conform as the person types and
 * again by the action. The action runs the hand-off of docs/product.md §7 on the server (uploadAdImage:
 * presigned URL, PUT of the file; then submit). It works without JavaScript; the browser never talks
 * to the api or the object store.
 */
import { getFormProps, useForm, type SubmissionResult } from '@conform-to/react';
import { parseWithZod } from '@conform-to/zod';
import {
  json,
  redirect,
  type ActionFunctionArgs,
  type HeadersFunction,
  type LoaderFunctionArgs,
} from '@remix-run/node';
import { Form, useActionData, useLoaderData, useLocation, useNavigation, type MetaFunction } from '@remix-run/react';
import { useState } from 'react';
import {
  AD_DURATIONS,
  AD_TYPES,
  AD_IMAGE_SIZE,
  IMAGE_MAX_BYTES,
  IMAGE_ROOM_FULL_MESSAGE,
  type AdType,
} from '../../contract/ads';
import { LANGUAGE_NAMES, LOCALES } from '../../contract/locales';
import { AdApplicationImageField } from '~/components/ad-application-image-field';
import { AdPriceNotice } from '~/components/ad-price-notice';
import { AdStatusLinkNotice } from '~/components/ad-status-link-notice';
import { ErrorSummary, RadioGroup, SubmitButton, TextareaField, TextField } from '~/components/forms';
import { RouteError } from '~/components/route-error';
import { englishCatalog, metaT, useT, type MessageParams, type Messages } from '~/i18n/i18n';
import { localeOfRequest } from '~/i18n/locale.server';
import { richText } from '~/i18n/rich-text';
import ads from '~/i18n/compiled/ko/ads.js';
import common from '~/i18n/compiled/ko/common.js';
import { submitAdApplication, uploadAdImage } from '~/models/ads.server';
import {
  AD_TYPE_NAME_KEYS,
  AdApplicationFormSchema,
  adApplicationFormSchema,
  adCheckMessages,
  detectImageType,
  formatPhone,
  orderedErrors,
  summaryControlId,
} from '~/utils/ad-application';
import { parseForm, readUploadForm, refusedForm, type FormSpec } from '~/utils/form-data.server';
import { setStatusLink, takeStatusLink } from '~/utils/status-link.server';
import { useHydrated } from '~/hooks/use-hydrated';
import { UpstreamError, rethrowUnlessUpstream } from '~/models/upstream.server';
import { formatCount } from '../../contract/korean-format';
import { priceWon, AD_PRICE_PER_MONTH_WON } from '../../contract/prices';
import { consoleFor } from '../../lib/observability/request-tag';

/** A key of the ads catalog, and its formatter in one language. */
type AdsKey = keyof typeof ads;
type AdsT = (key: AdsKey, params?: MessageParams) => string;

const FORM_ID = 'ad-application';
const FIELDS: FormSpec = { schema: AdApplicationFormSchema };
/**
 * The form's message and the answer's status for an api failure other than 415: the failure of
 * docs/product.md §8, 502 unless known, in the page's language (`t`). The api's 429 says whether
 * the phone sent too many (wait) or the phone's address holds too many pending applications'
 * images (ADR 027: waiting does not help); its 507 is a full image storage (ADR 018), this service
 * unavailable for now (503), not a broken upstream.
 */
function failureOf({ status: apiStatus, serverMessage }: UpstreamError, t: AdsT): { message: string; status: number } {
  if (apiStatus === 429 && serverMessage === IMAGE_ROOM_FULL_MESSAGE)
    return { message: t('apply.imageRoomFull'), status: 429 };
  if (apiStatus === 429) return { message: t('apply.rateLimited'), status: 429 };
  if (apiStatus === 507) return { message: t('apply.storageFull'), status: 503 };
  return { message: t('apply.failed'), status: 502 };
}

/**
 * The ads catalog's formatter in the request's language (docs/product.md §1 Languages: the cookie,
 * then Accept-Language), for the action's messages, and that language.
 */
async function requestT(request: Request) {
  const locale = localeOfRequest(request);
  const catalog: Messages<AdsKey> = locale === 'en' ? await englishCatalog() : ads;
  const t: AdsT = (key, params) => catalog[key](params);
  return { locale, t };
}

type ActionData = { result: SubmissionResult<string[]> };

/**
 * The picked image's own refusal (docs/product.md §5.1): over 5 MB, or no jpg, png or gif by its
 * first 4 bytes; null for none or no file (the schema says it is missing). Checked with the rest of
 * the form, so it shows with every other error at once and in the field's words.
 */
async function imageRefusal({ formData, oversized }: { formData: FormData; oversized: string[] }, t: AdsT) {
  if (oversized.includes('image')) return t('check.imageSize');
  const image = formData.get('image');
  if (typeof image === 'string' || image === null || image.size === 0) return null;
  const head = new Uint8Array(await image.slice(0, 4).arrayBuffer());
  return detectImageType(head) ? null : t('check.imageType');
}

/**
 * Where a taken application sends the browser (post/redirect/get: a reload does not send it again).
 * Its status token follows in a cookie (app/utils/status-link.server.ts), never in the URL.
 */
const SUBMITTED_URL = '/ads/apply?submitted=1';

/**
 * The bank account, and the status link of the application just taken: its absolute URL on this
 * page's origin and whether the api e-mailed it too; shown once (the loader spends the cookie).
 */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const { link, headers } = await takeStatusLink(context, request);
  const statusLink = link && {
    url: new URL(`/ads/status/${link.statusToken}`, request.url).href,
    emailed: link.emailed,
  };
  return json({ bankAccount: context.publicConfig?.bankAccount ?? null, statusLink }, { headers });
}

/** The loader's headers: the status link cookie's clearing, and no-store while the page shows the link. */
export const headers: HeadersFunction = ({ loaderHeaders }) => loaderHeaders;

/**
 * Takes an application (docs/product.md §7 hand-off): checks the form in the request's language
 * (the same schema, its messages from the ads catalog), uploads the image, then submits it with
 * `locale`, the page's language (its e-mails'), and the advertiser's `lang`; redirects with the
 * status link, or answers the form with its errors (400) or the failure (docs/product.md §8).
 */
export async function action({ request, context }: ActionFunctionArgs) {
  const { locale, t } = await requestT(request);
  const read = await readUploadForm(request, FIELDS, { maxFileBytes: IMAGE_MAX_BYTES });
  if (!read) return json<ActionData>({ result: refusedForm(t('apply.failed')) }, { status: 400 });
  const submission = parseForm(read.formData, adApplicationFormSchema(adCheckMessages(t)));
  const hideFields = ['image'];
  const imageError = await imageRefusal(read, t);
  if (imageError) {
    const fieldErrors = { ...(submission.status === 'error' ? submission.error : {}), image: [imageError] };
    return json<ActionData>({ result: submission.reply({ fieldErrors, hideFields }) }, { status: 400 });
  }
  if (submission.status !== 'success') {
    return json<ActionData>({ result: submission.reply({ hideFields }) }, { status: 400 });
  }
  const { image, type, email, content, ...fields } = submission.value;
  const refuseImageType = () => {
    const result = submission.reply({ fieldErrors: { image: [t('check.imageType')] }, hideFields });
    return json<ActionData>({ result }, { status: 400 });
  };
  let submitted;
  try {
    const imageUrl = await uploadAdImage(context, type, image);
    if (imageUrl === null) return refuseImageType();
    submitted = await submitAdApplication(context, type, {
      type,
      ...fields,
      applicantEmail: email,
      imageUrl,
      content: type === 'kakao' ? content : undefined,
      confirmed: false,
      locale,
    });
  } catch (error) {
    rethrowUnlessUpstream(error);
    consoleFor(context.reqId).error('[ads/apply] the application was not taken:', error.message);
    // The api sniffs the stored bytes again (file-type) and answers 415 for a file that only looked
    // like an image at its first four bytes (at the local PUT, or at submit when it went to S3).
    // The person's file is wrong, not the service.
    if (error.status === 415) return refuseImageType();
    const { message, status } = failureOf(error, t);
    return json<ActionData>({ result: submission.reply({ formErrors: [message], hideFields }) }, { status });
  }
  const { statusToken, emailed } = submitted;
  return redirect(SUBMITTED_URL, {
    status: 303,
    headers: statusToken ? { 'Set-Cookie': await setStatusLink(context, { statusToken, emailed }) } : {},
  });
}

/** Every navigation (a refusal answered, or the redirect after success) starts the form afresh from its answer. */
export default function AdApply() {
  return <Application key={useLocation().key} />;
}

function Application() {
  const t = useT(ads);
  const { bankAccount, statusLink } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  // The link comes once, to the browser that submitted (its cookie, spent by the loader): a reload,
  // or the address opened by anyone else, says nothing of a submission.
  const submitted = statusLink !== null && !actionData;
  const navigation = useNavigation();
  const hydrated = useHydrated();
  const pending = navigation.state === 'submitting' && navigation.formAction === '/ads/apply';
  const [form, fields] = useForm({
    id: FORM_ID,
    lastResult: pending ? undefined : actionData?.result,
    defaultValue: { lang: 'ko' },
    shouldValidate: 'onBlur',
    shouldRevalidate: 'onInput',
    onValidate: ({ formData }) => parseWithZod(formData, { schema: adApplicationFormSchema(adCheckMessages(t)) }),
  });
  const typed = actionData?.result.initialValue;
  const [type, setType] = useState(AD_TYPES.find((value) => value === typed?.type));
  const [months, setMonths] = useState(AD_DURATIONS.find((value) => String(value) === typed?.duration));
  const [imageProblem, setImageProblem] = useState<string | null>(null);
  const won = (amount: number) => t('price.won', { amount: formatCount(amount) });

  // After a submission with errors (refused by conform in the browser or by the action), the
  // summary lists them in the spec's check order, the image first; it shrinks as they are fixed.
  // A file the picker dropped (not a jpg, png or gif) leaves the image missing: the summary says
  // why, in the image field's words, not that none was uploaded.
  const failed = actionData?.result.status === 'error';
  const errors = imageProblem && form.allErrors.image ? { ...form.allErrors, image: [imageProblem] } : form.allErrors;
  const summary =
    form.status === 'error'
      ? orderedErrors(errors).map(({ name, message }) => ({
          fieldId: summaryControlId(fields[name].id, name),
          message,
        }))
      : [];
  const formError = form.status === 'error' ? form.errors?.[0] : undefined;

  return (
    <div className="page ad-apply">
      <h1 className="page__title">{t('apply.title')}</h1>
      <p className="page__lead">{t('apply.lead')}</p>

      <AdPriceNotice bankAccount={bankAccount} />

      <div aria-live="polite" role="status" className="form-status">
        {submitted && <p className="form-status__success">{t('apply.submitted')}</p>}
      </div>
      {submitted && statusLink && <AdStatusLinkNotice {...statusLink} />}
      {formError ? (
        <div className="error-summary" role="alert">
          <p className="error-summary__title">{formError}</p>
          <p>{typed ? t('apply.keptInput') : t('apply.unread')}</p>
        </div>
      ) : (
        <ErrorSummary title={t('apply.errorsTitle')} errors={summary} />
      )}

      <Form method="post" action="/ads/apply" encType="multipart/form-data" {...getFormProps(form)} className="form">
        <RadioGroup
          meta={fields.type}
          legend={t('apply.type')}
          options={AD_TYPES.map((value) => ({
            value,
            label: (
              <>
                {t(AD_TYPE_NAME_KEYS[value])}
                <span className="choice__note">{t('apply.typeSize', AD_IMAGE_SIZE[value])}</span>
              </>
            ),
          }))}
          onChange={(value) => setType(value as AdType)}
        />
        <TextField meta={fields.title} label={t('apply.adTitle')} />
        <TextField meta={fields.applicantName} label={t('apply.name')} inputProps={{ autoComplete: 'name' }} />
        <TextField
          meta={fields.applicantPhone}
          label={t('apply.phone')}
          hint={t('apply.phoneHint')}
          inputProps={{
            type: 'tel',
            inputMode: 'numeric',
            autoComplete: 'tel',
            maxLength: 13,
            onInput: (event) => {
              event.currentTarget.value = formatPhone(event.currentTarget.value);
            },
          }}
        />
        <TextField
          meta={fields.email}
          label={t('apply.email')}
          hint={t('apply.emailHint')}
          inputProps={{ type: 'email', autoComplete: 'email' }}
        />
        <TextField
          meta={fields.redirectUrl}
          label={t('apply.link')}
          optional
          hint={t('apply.linkHint')}
          inputProps={{ type: 'url', inputMode: 'url', placeholder: 'https://' }}
        />
        <AdApplicationImageField
          meta={fields.image}
          type={type}
          failedBefore={failed}
          problem={imageProblem}
          onProblem={setImageProblem}
        />
        <TextareaField meta={fields.contentForManager} label={t('apply.note')} optional hint={t('apply.noteHint')} />
        <RadioGroup
          meta={fields.duration}
          legend={t('apply.duration')}
          options={AD_DURATIONS.map((value) => ({
            value: String(value),
            label: (
              <>
                {t('price.months', { months: value })}
                <span className="choice__note">{won(priceWon(value))}</span>
              </>
            ),
          }))}
          onChange={(value) => setMonths(AD_DURATIONS.find((months) => String(months) === value))}
        />
        <p className="total" aria-live="polite">
          {months
            ? richText(
                t('apply.total', { monthly: won(AD_PRICE_PER_MONTH_WON), months, total: won(priceWon(months)) }),
                { strong: (words) => <strong>{words}</strong> },
              )
            : hydrated && t('apply.totalHint')}
        </p>
        {type !== 'web' && (
          <TextareaField meta={fields.content} label={t('apply.content')} hint={t('apply.contentHint')} />
        )}
        <RadioGroup
          meta={fields.lang}
          legend={t('apply.lang')}
          hint={t('apply.langHint')}
          options={LOCALES.map((value) => ({ value, label: <span lang={value}>{LANGUAGE_NAMES[value]}</span> }))}
        />
        <SubmitButton pending={pending} pendingText={t('apply.sending')}>
          {t('apply.submit')}
        </SubmitButton>
      </Form>
    </div>
  );
}

/** The page's title and description in its language (docs/product.md §1 Languages). */
export const meta: MetaFunction = ({ matches }) => {
  const t = metaT(matches, ads);
  return [
    { title: t('apply.pageTitle', { name: metaT(matches, common)('site.name') }) },
    {
      name: 'description',
      content: t('apply.description', { price: t('price.won', { amount: formatCount(priceWon(1)) }) }),
    },
  ];
};

export function ErrorBoundary() {
  return <RouteError />;
}
