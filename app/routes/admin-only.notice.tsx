/**
 * /admin-only/notice (docs/product.md §2.2 Admin routes): the switch of the home screen's blocking
 * service-suspension notice (docs/product.md §1, §4) with its title and text. One form, one zod
 * schema, checked by conform in the browser and again by the action; it works without JavaScript.
 * The bus feed's health and the backtest are on /admin-only/feed.
 */
import { getFormProps, getInputProps, useForm, type FieldMetadata, type SubmissionResult } from '@conform-to/react';
import { getZodConstraint, parseWithZod } from '@conform-to/zod';
import { json, type ActionFunctionArgs, type AppLoadContext, type LoaderFunctionArgs } from '@remix-run/node';
import { Form, useActionData, useLoaderData, useLocation, useNavigation, type MetaFunction } from '@remix-run/react';
import { z } from 'zod';
import {
  DEFAULT_SERVICE_NOTICE,
  ServiceNoticeSchema,
  STALE_EDIT_MESSAGE,
  type AdminNotice,
} from '../../contract/admin';
import { FieldError, SubmitButton, TextareaField, TextField } from '~/components/forms';
import { RouteError } from '~/components/route-error';
import { SITE_NAME } from '~/components/site-header';
import { getServiceNotice, saveServiceNotice } from '~/models/notice.server';
import { parseForm, readForm, refusedForm, type FormSpec } from '~/utils/form-data.server';
import { redirectWithFlash, requireAdmin, takeFlash } from '~/models/session.server';
import { rethrowUnlessUpstream } from '~/models/upstream.server';
import { consoleFor } from '../../lib/observability/request-tag';

const PAGE_PATH = '/admin-only/notice';
const FORM_ID = 'service-notice';
const SAVED = '서비스 공지 설정을 저장했습니다.';
const SAVE_FAILED = '저장하지 못했습니다. 잠시 후 다시 시도해주세요.';
const LOAD_FAILED = '불러오지 못했습니다.';
/** A save refused because another admin saved first (409): the form shows what is saved now. */
const STALE = `${STALE_EDIT_MESSAGE} 지금 저장된 내용을 보여드립니다. 바꿀 내용을 다시 입력해 저장해주세요.`;

/** The English title or text given without the other: English pages would show neither (service-notice-modal.tsx). */
const ENGLISH_PAIR = 'English title과 English text를 함께 입력해주세요.';

/**
 * The form's schema: the contract's notice, with an unchecked box read as off (a browser sends
 * nothing for it), Korean messages for an empty title or text (conform sends nothing for them), and
 * the English title and text given together or not at all.
 */
const NoticeFormSchema = ServiceNoticeSchema.extend({
  enabled: z.boolean().default(false),
  title: z.string({ required_error: '제목을 입력해주세요.' }).pipe(ServiceNoticeSchema.shape.title),
  text: z.string({ required_error: '내용을 입력해주세요.' }).pipe(ServiceNoticeSchema.shape.text),
  /** The version the form was made on (a hidden field; empty before the first save). */
  version: z
    .string()
    .optional()
    .transform((value) => value || null),
}).superRefine(({ titleEn, textEn }, context) => {
  if (titleEn && !textEn) context.addIssue({ code: 'custom', path: ['textEn'], message: ENGLISH_PAIR });
  if (textEn && !titleEn) context.addIssue({ code: 'custom', path: ['titleEn'], message: ENGLISH_PAIR });
});

/** The form's fields, and its buttons' intent (save, or the preset text). */
const FIELDS: FormSpec = { schema: NoticeFormSchema, also: ['intent'] };

type ActionData = { result: SubmissionResult<string[]> };

export async function loader({ request, context }: LoaderFunctionArgs) {
  const admin = await requireAdmin(request, context);
  const notice = await loadNotice(context, admin.username);
  const { flash, headers } = await takeFlash(context, admin);
  return json({ flash, notice }, { headers });
}

export async function action({ request, context }: ActionFunctionArgs) {
  const admin = await requireAdmin(request, context);
  const formData = await readForm(request, FIELDS);
  if (!formData) return json<ActionData>({ result: refusedForm(SAVE_FAILED) }, { status: 400 });
  const submission = parseForm(withPreset(formData), NoticeFormSchema);
  if (submission.status !== 'success') {
    return json<ActionData>({ result: submission.reply() }, { status: 400 });
  }
  try {
    await saveServiceNotice(context, admin.username, submission.value);
  } catch (error) {
    rethrowUnlessUpstream(error);
    // The page again, its loader reading what is saved now, and why (a 4xx answer would not reload it).
    if (error.status === 409) return redirectWithFlash(context, admin, PAGE_PATH, { tone: 'error', message: STALE });
    consoleFor(context.reqId).error('[admin/notice] the notice was not saved:', error.message);
    return json<ActionData>({ result: submission.reply({ formErrors: [SAVE_FAILED] }) }, { status: 502 });
  }
  return redirectWithFlash(context, admin, PAGE_PATH, { tone: 'success', message: SAVED });
}

/** Every navigation (a refusal answered, or the redirect after a save) starts the form afresh from its answer. */
export default function NoticePage() {
  const { flash, notice } = useLoaderData<typeof loader>();
  const location = useLocation();
  return (
    <div className="admin-page">
      <h1 className="admin-page__title">서비스 공지</h1>
      <div role="status" className="admin-flash">
        {flash && <p className={flash.tone === 'success' ? 'admin-success' : 'admin-error'}>{flash.message}</p>}
      </div>
      <section aria-labelledby="notice-title" className="admin-section">
        <h2 id="notice-title" className="admin-section__title">
          서비스 중단 안내
        </h2>
        {notice ? <NoticeForm key={location.key} notice={notice} /> : <p className="admin-error">{LOAD_FAILED}</p>}
      </section>
    </div>
  );
}

function NoticeForm({ notice }: { notice: AdminNotice }) {
  const actionData = useActionData<typeof action>();
  const navigation = useNavigation();
  const pending = navigation.state === 'submitting' && navigation.formAction === PAGE_PATH;
  const presetPending = pending && navigation.formData?.get('intent') === 'preset';
  const [form, fields] = useForm({
    id: FORM_ID,
    lastResult: pending ? undefined : actionData?.result,
    defaultValue: {
      ...notice,
      titleEn: notice.titleEn ?? '',
      textEn: notice.textEn ?? '',
      version: notice.version ?? '',
    },
    constraint: getZodConstraint(NoticeFormSchema),
    shouldValidate: 'onBlur',
    shouldRevalidate: 'onInput',
    onValidate: ({ formData }) => parseWithZod(withPreset(formData), { schema: NoticeFormSchema }),
  });
  const formError = form.errors?.[0];
  return (
    <>
      <p className={`notice-state notice-state--${notice.enabled ? 'on' : 'off'}`}>
        현재: <strong>{notice.enabled ? '표시 중' : '꺼짐'}</strong>
      </p>
      <p className="field__hint">
        켜면 홈 화면을 여는 모든 이용자에게 버스 정보 대신 닫을 수 없는 안내 창이 뜹니다. 공공데이터 점검처럼 버스
        정보를 제공할 수 없을 때만 켜주세요.
      </p>
      <div role="alert">{formError && <p className="admin-error">{formError}</p>}</div>
      <Form method="post" action={PAGE_PATH} {...getFormProps(form)} className="form">
        <input {...getInputProps(fields.version, { type: 'hidden' })} key={fields.version.key} />
        <Checkbox meta={fields.enabled} label="홈 화면에 서비스 중단 안내 표시" />
        <TextField meta={fields.title} label="제목" inputProps={{ autoComplete: 'off' }} />
        <TextareaField meta={fields.text} label="내용" rows={6} />
        <p className="field__hint">
          영어로 보는 이용자에게는 아래 English title과 English text를 보여줍니다. 둘 다 비워 두면 한국어 공지를 그대로
          보여줍니다.
        </p>
        <TextField
          meta={fields.titleEn}
          label="English title"
          optional
          inputProps={{ autoComplete: 'off', lang: 'en' }}
        />
        <TextareaField meta={fields.textEn} label="English text" optional rows={6} />
        <div className="admin-form__actions">
          <SubmitButton pending={pending} pendingText={presetPending ? '저장' : '저장하는 중…'}>
            저장
          </SubmitButton>
          {/* Saves the switch as checked with the preset title and text; formNoValidate: an emptied field does not block it. */}
          <button
            type="submit"
            name="intent"
            value="preset"
            formNoValidate
            className="button button--small admin-form__secondary"
            disabled={pending}
            aria-describedby="notice-preset-hint"
          >
            {presetPending ? '되돌리는 중…' : '기본 문구로 되돌리기'}
          </button>
          <p id="notice-preset-hint" className="field__hint">
            제목과 내용을 처음 제공된 안내 문구(공공데이터포털 점검 안내)로 바꿔 저장합니다. 표시 여부는 위 체크 상태를
            따릅니다.
          </p>
        </div>
      </Form>
    </>
  );
}

/** A labelled checkbox with its error (conform sends "on" when checked, nothing otherwise). */
function Checkbox({ meta, label }: { meta: FieldMetadata<boolean>; label: string }) {
  const { key, ...props } = getInputProps(meta, { type: 'checkbox' });
  return (
    <div className="field">
      <label className="admin-checkbox">
        <input key={key} {...props} />
        <span>{label}</span>
      </label>
      <FieldError meta={meta as Parameters<typeof FieldError>[0]['meta']} />
    </div>
  );
}

/**
 * "기본 문구로 되돌리기" (intent=preset): the switch as posted with the preset title and text (and their English)
 * (contract DEFAULT_SERVICE_NOTICE). Used by conform in the browser and by the action alike.
 */
function withPreset(formData: FormData): FormData {
  if (formData.get('intent') !== 'preset') return formData;
  const preset = new FormData();
  for (const [name, value] of formData) preset.append(name, value);
  preset.set('title', DEFAULT_SERVICE_NOTICE.title);
  preset.set('text', DEFAULT_SERVICE_NOTICE.text);
  preset.set('titleEn', DEFAULT_SERVICE_NOTICE.titleEn ?? '');
  preset.set('textEn', DEFAULT_SERVICE_NOTICE.textEn ?? '');
  return preset;
}

/** The notice, or null when the api failed (logged); other errors are thrown. */
async function loadNotice(context: AppLoadContext, actor: string): Promise<AdminNotice | null> {
  try {
    return await getServiceNotice(context, actor);
  } catch (error) {
    rethrowUnlessUpstream(error);
    consoleFor(context.reqId).error('[admin/notice] the notice did not load:', error.message);
    return null;
  }
}

export const meta: MetaFunction = () => [
  { title: `서비스 공지 | ${SITE_NAME}` },
  { name: 'robots', content: 'noindex' },
];

export function ErrorBoundary() {
  return <RouteError />;
}
