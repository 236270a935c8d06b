/**
 * /admin-only/setup?token=…: the first admin's one-time setup (ADR 008). The server prints this link
 * at start while no admin exists; the token is valid for one hour. Creating the account signs the
 * admin in, and the page is gone for good (404) once any admin exists. The api takes 10 setup
 * requests (opening the link or sending the form) per address per 15 minutes (README "Sessions and
 * sign-in limits"); past that the page says how long to wait (429) instead of showing the form.
 */
import { getFormProps, useForm, type SubmissionResult } from '@conform-to/react';
import { parseWithZod } from '@conform-to/zod';
import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from '@remix-run/node';
import {
  Form,
  isRouteErrorResponse,
  Link,
  useActionData,
  useLoaderData,
  useNavigation,
  useRouteError,
  type MetaFunction,
} from '@remix-run/react';
import { CredentialFields, FormAlert } from '~/components/admin/credential-fields';
import { SubmitButton, TextField } from '~/components/forms';
import { RouteError } from '~/components/route-error';
import { SITE_NAME } from '~/components/site-header';
import { completeSetup, isSetupOpen } from '~/models/admin.server';
import { minutesToWait, SetupFormSchema } from '~/utils/admin-forms';
import { assertSameOrigin } from '~/utils/csrf.server';
import { parseForm, readForm, refusedForm, type FormSpec } from '~/utils/form-data.server';
import { ADMIN_HOME, startAdminSession } from '~/models/session.server';
import { rethrowUnlessUpstream } from '~/models/upstream.server';
import { PASSWORD_MIN_LENGTH } from '../../contract/admin';
import { consoleFor } from '../../lib/observability/request-tag';

/** Shown for an unknown, expired or used link (the same for all, so a guess learns nothing). */
const FIELDS: FormSpec = { schema: SetupFormSchema };
const GONE = '이 설정 링크는 만료되었거나 이미 사용되었습니다.';
const SETUP_FAILED = '관리자 계정을 만들지 못했습니다. 잠시 후 다시 시도해주세요.';

/** The api's 429: how long to wait, in whole minutes (at least 1), then what to do again. */
function tooManyRequests(retryAfterSec: number, then: string): string {
  return `관리자 계정 설정 요청이 너무 많습니다. ${minutesToWait(retryAfterSec)}분 뒤에 ${then}`;
}

export async function loader({ request, context }: LoaderFunctionArgs) {
  const token = new URL(request.url).searchParams.get('token') ?? '';
  const open = token.length > 0 && token.length <= 200 && (await isSetupOpen(context, token));
  if (typeof open === 'object') {
    const refusal = tooManyRequests(open.retryAfterSec, '이 링크를 다시 열어주세요.');
    return json({ token: null, refusal }, { status: 429 });
  }
  if (!open) throw new Response(GONE, { status: 404 });
  return json({ token, refusal: null });
}

export async function action({ request, context }: ActionFunctionArgs) {
  assertSameOrigin(request);
  const formData = await readForm(request, FIELDS);
  if (!formData) return json({ result: refusedForm(SETUP_FAILED) }, { status: 400 });
  const submission = parseForm(formData, SetupFormSchema);
  const hideFields = ['password', 'passwordConfirm'];
  if (submission.status !== 'success') return json({ result: submission.reply({ hideFields }) }, { status: 400 });
  const { token, username, password } = submission.value;
  try {
    const session = await completeSetup(context, { token, username, password });
    if (!session) return json({ result: submission.reply({ formErrors: [GONE], hideFields }) }, { status: 404 });
    if ('refused' in session) {
      const message = tooManyRequests(session.retryAfterSec, '다시 시도해주세요.');
      return json({ result: submission.reply({ formErrors: [message], hideFields }) }, { status: 429 });
    }
    return startAdminSession(context, session, ADMIN_HOME);
  } catch (error) {
    rethrowUnlessUpstream(error);
    consoleFor(context.reqId).error('[admin/setup] failed:', error.message);
    return json({ result: submission.reply({ formErrors: [SETUP_FAILED], hideFields }) }, { status: 502 });
  }
}

export default function Setup() {
  const { token, refusal } = useLoaderData<typeof loader>();
  return (
    <section className="page admin-login" aria-labelledby="setup-title">
      <h1 id="setup-title" className="page__title">
        첫 관리자 계정 만들기
      </h1>
      {token === null ? <FormAlert message={refusal} /> : <SetupForm token={token} />}
    </section>
  );
}

function SetupForm({ token }: { token: string }) {
  const actionData = useActionData<{ result: SubmissionResult<string[]> }>();
  const navigation = useNavigation();
  const [form, fields] = useForm({
    id: 'admin-setup',
    lastResult: navigation.state === 'idle' ? actionData?.result : undefined,
    shouldValidate: 'onBlur',
    shouldRevalidate: 'onInput',
    onValidate: ({ formData }) => parseWithZod(formData, { schema: SetupFormSchema }),
  });
  const formError = form.errors?.[0];
  return (
    <>
      <p>이 링크는 한 번만 쓸 수 있습니다. 계정을 만들면 바로 로그인됩니다.</p>
      <FormAlert message={formError} />
      <Form method="post" {...getFormProps(form)} className="form">
        <input type="hidden" name="token" value={token} />
        <CredentialFields
          fields={fields}
          password="new-password"
          hints={{ username: '영문 소문자, 숫자, . _ - 로 3~32자', password: `${PASSWORD_MIN_LENGTH}자 이상` }}
        />
        <TextField
          meta={fields.passwordConfirm}
          label="비밀번호 확인"
          inputProps={{ type: 'password', autoComplete: 'new-password' }}
        />
        <SubmitButton pending={navigation.state === 'submitting'} pendingText="만드는 중…">
          계정 만들기
        </SubmitButton>
      </Form>
    </>
  );
}

export const meta: MetaFunction = () => [
  { title: `관리자 계정 만들기 | ${SITE_NAME}` },
  { name: 'robots', content: 'noindex' },
];

export function ErrorBoundary() {
  const error = useRouteError();
  if (!isRouteErrorResponse(error) || error.status !== 404) return <RouteError />;
  return (
    <section className="error-panel" aria-labelledby="setup-gone-title">
      <h1 id="setup-gone-title">{GONE}</h1>
      <p>
        관리자 계정이 이미 있다면 로그인해주세요. 새 계정은 서버에서 <code>npm run admin:create</code>로 만들 수
        있습니다.
      </p>
      <Link to="/admin-only/login" className="button">
        관리자 로그인
      </Link>
    </section>
  );
}
