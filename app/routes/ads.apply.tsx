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
  AD_FORMAT_MESSAGES,
  AD_TYPES,
  AD_IMAGE_SIZE,
  AD_MESSAGES,
  AD_TYPE_LABELS,
  IMAGE_MAX_BYTES,
  IMAGE_ROOM_FULL_MESSAGE,
  type AdType,
} from '../../contract/ads';
import { AdApplicationImageField } from '~/components/ad-application-image-field';
import { AdPriceNotice } from '~/components/ad-price-notice';
import { ErrorSummary, RadioGroup, SubmitButton, TextareaField, TextField } from '~/components/forms';
import { RouteError } from '~/components/route-error';
import { SITE_NAME } from '~/components/site-header';
import { submitAdApplication, uploadAdImage } from '~/models/ads.server';
import {
  AdApplicationFormSchema,
  detectImageType,
  formatPhone,
  orderedErrors,
  summaryControlId,
} from '~/utils/ad-application';
import { parseForm, readUploadForm, refusedForm, type FormSpec } from '~/utils/form-data.server';
import { setStatusLink, takeStatusLink } from '~/utils/status-link.server';
import { useHydrated } from '~/hooks/use-hydrated';
import { UpstreamError, rethrowUnlessUpstream } from '~/models/upstream.server';
import { formatWon, priceWon } from '../../contract/prices';
import { consoleFor } from '../../lib/observability/request-tag';

const FORM_ID = 'ad-application';
const FIELDS: FormSpec = { schema: AdApplicationFormSchema };
/** docs/product.md §8 failure, and what to do about it when the api says the phone sent too many. */
const RATE_LIMITED = `${AD_MESSAGES.submitFailed} 잠시 후 다시 시도해주세요.`;
/**
 * docs/product.md §8 failure when the api's image storage is full (its 507, ADR 018): nothing the
 * applicant can fix, and room comes back as unused images are removed or an admin frees some.
 */
const STORAGE_FULL = `${AD_MESSAGES.submitFailed} 지금은 이미지를 더 받을 수 없습니다. 잠시 후 다시 시도해주세요.`;
/**
 * docs/product.md §8 failure when the api refuses the image for the room of the phone's address
 * (ADR 027): its pending applications hold their images until they are decided, so waiting a few
 * minutes does not help.
 */
const IMAGE_ROOM_FULL = `${AD_MESSAGES.submitFailed} 지금 쓰는 인터넷 연결에서 보낸 신청 가운데 검토를 기다리는 신청이 많아 더 받을 수 없습니다. 앞선 신청이 검토된 뒤 다시 신청하거나, 문의하기로 알려주세요.`;
/**
 * The form's message and the answer's status for an api failure other than 415: the failure of
 * docs/product.md §8, 502 unless known.
 */
function failureOf({ status: apiStatus, serverMessage }: UpstreamError): { message: string; status: number } {
  if (apiStatus === 429 && serverMessage === IMAGE_ROOM_FULL_MESSAGE) return { message: IMAGE_ROOM_FULL, status: 429 };
  if (apiStatus === 429) return { message: RATE_LIMITED, status: 429 };
  // A full image storage is this service unavailable for now (503), not a broken upstream (502).
  if (apiStatus === 507) return { message: STORAGE_FULL, status: 503 };
  return { message: AD_MESSAGES.submitFailed, status: 502 };
}

type ActionData = { result: SubmissionResult<string[]> };

/**
 * The picked image's own refusal (docs/product.md §5.1): over 5 MB, or no jpg, png or gif by its
 * first 4 bytes; null for none or no file (the schema says it is missing). Checked with the rest of
 * the form, so it shows with every other error at once and in the field's words.
 */
async function imageRefusal({ formData, oversized }: { formData: FormData; oversized: string[] }) {
  if (oversized.includes('image')) return AD_FORMAT_MESSAGES.imageSize;
  const image = formData.get('image');
  if (typeof image === 'string' || image === null || image.size === 0) return null;
  const head = new Uint8Array(await image.slice(0, 4).arrayBuffer());
  return detectImageType(head) ? null : AD_FORMAT_MESSAGES.imageType;
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

export async function action({ request, context }: ActionFunctionArgs) {
  const read = await readUploadForm(request, FIELDS, { maxFileBytes: IMAGE_MAX_BYTES });
  if (!read) return json<ActionData>({ result: refusedForm(AD_MESSAGES.submitFailed) }, { status: 400 });
  const submission = parseForm(read.formData, AdApplicationFormSchema);
  const hideFields = ['image'];
  const imageError = await imageRefusal(read);
  if (imageError) {
    const fieldErrors = { ...(submission.status === 'error' ? submission.error : {}), image: [imageError] };
    return json<ActionData>({ result: submission.reply({ fieldErrors, hideFields }) }, { status: 400 });
  }
  if (submission.status !== 'success') {
    return json<ActionData>({ result: submission.reply({ hideFields }) }, { status: 400 });
  }
  const { image, type, email, content, ...fields } = submission.value;
  const refuseImageType = () => {
    const result = submission.reply({ fieldErrors: { image: [AD_FORMAT_MESSAGES.imageType] }, hideFields });
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
    });
  } catch (error) {
    rethrowUnlessUpstream(error);
    consoleFor(context.reqId).error('[ads/apply] the application was not taken:', error.message);
    // The api sniffs the stored bytes again (file-type) and answers 415 for a file that only looked
    // like an image at its first four bytes (at the local PUT, or at submit when it went to S3).
    // The person's file is wrong, not the service.
    if (error.status === 415) return refuseImageType();
    const { message, status } = failureOf(error);
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
    shouldValidate: 'onBlur',
    shouldRevalidate: 'onInput',
    onValidate: ({ formData }) => parseWithZod(formData, { schema: AdApplicationFormSchema }),
  });
  const typed = actionData?.result.initialValue;
  const [type, setType] = useState(AD_TYPES.find((value) => value === typed?.type));
  const [months, setMonths] = useState(AD_DURATIONS.find((value) => String(value) === typed?.duration));
  const [imageProblem, setImageProblem] = useState<string | null>(null);

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
      <h1 className="page__title">광고 신청</h1>
      <p className="page__lead">
        통학생이 매일 보는 버스 화면과 카카오톡 챗봇에 가게를 알려보세요. 검토 결과는 접수 후 받는 신청 현황 링크에서
        확인할 수 있습니다.
      </p>

      <AdPriceNotice bankAccount={bankAccount} />

      <div aria-live="polite" role="status" className="form-status">
        {submitted && <p className="form-status__success">{AD_MESSAGES.submitted} 입금을 확인한 뒤 검토합니다.</p>}
      </div>
      {submitted && statusLink && <StatusLinkNotice {...statusLink} />}
      {formError ? (
        <div className="error-summary" role="alert">
          <p className="error-summary__title">{formError}</p>
          <p>
            {typed
              ? '입력하신 내용은 그대로 남아 있습니다. 이미지만 다시 선택한 뒤 다시 신청해주세요.'
              : '보내주신 내용을 읽지 못했습니다. 다시 입력해 신청해주세요.'}
          </p>
        </div>
      ) : (
        <ErrorSummary title="입력한 내용을 확인해주세요" errors={summary} />
      )}

      <Form method="post" action="/ads/apply" encType="multipart/form-data" {...getFormProps(form)} className="form">
        <RadioGroup
          meta={fields.type}
          legend="광고 유형"
          options={AD_TYPES.map((value) => ({
            value,
            label: (
              <>
                {AD_TYPE_LABELS[value]}
                <span className="choice__note">
                  이미지 {AD_IMAGE_SIZE[value].width}×{AD_IMAGE_SIZE[value].height}
                </span>
              </>
            ),
          }))}
          onChange={(value) => setType(value as AdType)}
        />
        <TextField meta={fields.title} label="광고 제목" />
        <TextField meta={fields.applicantName} label="신청자 이름" inputProps={{ autoComplete: 'name' }} />
        <TextField
          meta={fields.applicantPhone}
          label="전화번호"
          hint="숫자만 입력하면 010-1234-5678 형식으로 맞춰집니다."
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
          label="이메일"
          hint="입금이나 광고 내용에 관해 연락드릴 때 씁니다."
          inputProps={{ type: 'email', autoComplete: 'email' }}
        />
        <TextField
          meta={fields.redirectUrl}
          label="연결할 링크"
          optional
          hint="광고를 누르면 열릴 주소입니다. http:// 또는 https://로 시작해야 합니다."
          inputProps={{ type: 'url', inputMode: 'url', placeholder: 'https://' }}
        />
        <AdApplicationImageField
          meta={fields.image}
          type={type}
          failedBefore={failed}
          problem={imageProblem}
          onProblem={setImageProblem}
        />
        <TextareaField
          meta={fields.contentForManager}
          label="검토자에게 남길 말"
          optional
          hint="게재 희망일, 입금자명이 다른 경우 등을 적어주세요."
        />
        <RadioGroup
          meta={fields.duration}
          legend="광고 게재 기간"
          options={AD_DURATIONS.map((value) => ({
            value: String(value),
            label: (
              <>
                {value}개월<span className="choice__note">{formatWon(priceWon(value))}</span>
              </>
            ),
          }))}
          onChange={(value) => setMonths(AD_DURATIONS.find((months) => String(months) === value))}
        />
        <p className="total" aria-live="polite">
          {months ? (
            <>
              결제 금액: <strong>{formatWon(priceWon(months))}</strong> ({months}개월)
            </>
          ) : (
            hydrated && '기간을 고르면 결제 금액이 표시됩니다.'
          )}
        </p>
        {type !== 'web' && (
          <TextareaField
            meta={fields.content}
            label="광고 메시지"
            hint="챗봇 광고에만 씁니다. 챗봇 답변 아래에 이미지와 함께 보이는 문구로, 230자까지 쓸 수 있습니다."
          />
        )}
        <SubmitButton pending={pending} pendingText="접수하는 중...">
          광고 신청하기
        </SubmitButton>
      </Form>
    </div>
  );
}

/** The private link to the application's status page, shown once after it was taken. */
function StatusLinkNotice({ url, emailed }: { url: string; emailed: boolean }) {
  return (
    <section className="notice-box" aria-labelledby="status-link-title">
      <h2 id="status-link-title" className="section-title">
        신청 현황 링크
      </h2>
      <p>
        검토 결과는 아래 링크에서 확인할 수 있습니다. 이 링크는 지금 한 번만 보여드리니 꼭 저장해두세요.
        {emailed && ' 같은 링크를 입력하신 이메일로도 보내드렸습니다.'}
      </p>
      <p className="status-link__url">
        <a href={url}>{url}</a>
      </p>
      <p className="notice-box__small">링크를 길게 누르거나 선택해 복사한 뒤, 메모나 즐겨찾기에 남겨두세요.</p>
    </section>
  );
}

export const meta: MetaFunction = () => [
  { title: `광고 신청 — ${SITE_NAME}` },
  { name: 'description', content: '외대 버스 화면과 카카오톡 챗봇에 가게 광고를 신청합니다. 한 달 26,000원.' },
];

export function ErrorBoundary() {
  return <RouteError />;
}
