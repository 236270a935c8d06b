/**
 * /admin-only/login: admin sign-in (ADR 008). Outside the admin layout's guard. A signed-in admin
 * is sent on; a successful sign-in returns to the page that asked for it (redirectTo, only pages
 * under /admin-only). The api limits failures (README "Sessions and sign-in limits"): 10 of one
 * username from one address and 20 from one address per 15 minutes answer 429 (→ how many minutes
 * to wait); past 20 of one username from everywhere each attempt is slowed down, never refused.
 */
import { getFormProps, useForm, type SubmissionResult } from '@conform-to/react';
import { parseWithZod } from '@conform-to/zod';
import { json, redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from '@remix-run/node';
import { Form, useActionData, useLoaderData, useNavigation, type MetaFunction } from '@remix-run/react';
import { CredentialFields, FormAlert } from '~/components/admin/credential-fields';
import { SubmitButton } from '~/components/forms';
import { RouteError } from '~/components/route-error';
import { SITE_NAME } from '~/components/site-header';
import { signIn } from '~/models/admin.server';
import { LoginFormSchema, minutesToWait } from '~/utils/admin-forms';
import { assertSameOrigin } from '~/utils/csrf.server';
import { parseForm, readForm, refusedForm, type FormSpec } from '~/utils/form-data.server';
import { currentAdmin, safeRedirectTo, startAdminSession } from '~/models/session.server';
import { rethrowUnlessUpstream } from '~/models/upstream.server';
import { consoleFor } from '../../lib/observability/request-tag';

const FIELDS: FormSpec = { schema: LoginFormSchema };
const WRONG_CREDENTIALS = '아이디 또는 비밀번호가 올바르지 않습니다.';
const SIGN_IN_FAILED = '로그인하지 못했습니다. 잠시 후 다시 시도해주세요.';

export async function loader({ request, context }: LoaderFunctionArgs) {
  const redirectTo = safeRedirectTo(new URL(request.url).searchParams.get('redirectTo'));
  if (await currentAdmin(request, context)) throw redirect(redirectTo);
  return json({ redirectTo });
}

export async function action({ request, context }: ActionFunctionArgs) {
  assertSameOrigin(request);
  const formData = await readForm(request, FIELDS);
  if (!formData) return json({ result: refusedForm(SIGN_IN_FAILED) }, { status: 400 });
  const submission = parseForm(formData, LoginFormSchema);
  if (submission.status !== 'success') {
    return json({ result: submission.reply({ hideFields: ['password'] }) }, { status: 400 });
  }
  const { username, password } = submission.value;
  // Worked out before the api opens a session, so a bad one can never leave a session without its cookie.
  const redirectTo = safeRedirectTo(submission.value.redirectTo ?? null);
  const refuse = (message: string, status: number) =>
    json({ result: submission.reply({ formErrors: [message], hideFields: ['password'] }) }, { status });
  try {
    const outcome = await signIn(context, { username, password });
    if (!('refused' in outcome)) return startAdminSession(context, outcome, redirectTo);
    if (outcome.refused === 'credentials') return refuse(WRONG_CREDENTIALS, 401);
    return refuse(
      `로그인 시도가 너무 많습니다. ${minutesToWait(outcome.retryAfterSec)}분 뒤에 다시 시도해주세요.`,
      429,
    );
  } catch (error) {
    rethrowUnlessUpstream(error);
    consoleFor(context.reqId).error('[admin/login] sign-in failed:', error.message);
    return refuse(SIGN_IN_FAILED, 502);
  }
}

export default function Login() {
  const { redirectTo } = useLoaderData<typeof loader>();
  const actionData = useActionData<{ result: SubmissionResult<string[]> }>();
  const navigation = useNavigation();
  const [form, fields] = useForm({
    id: 'admin-login',
    lastResult: navigation.state === 'idle' ? actionData?.result : undefined,
    shouldValidate: 'onSubmit',
    onValidate: ({ formData }) => parseWithZod(formData, { schema: LoginFormSchema }),
  });
  const formError = form.errors?.[0];
  return (
    <section className="page admin-login" aria-labelledby="login-title">
      <h1 id="login-title" className="page__title">
        관리자 로그인
      </h1>
      <FormAlert message={formError} />
      <Form method="post" {...getFormProps(form)} className="form">
        <input type="hidden" name="redirectTo" value={redirectTo} />
        <CredentialFields fields={fields} password="current-password" />
        <SubmitButton pending={navigation.state === 'submitting'} pendingText="로그인하는 중…">
          로그인
        </SubmitButton>
      </Form>
    </section>
  );
}

export const meta: MetaFunction = () => [
  { title: `관리자 로그인 | ${SITE_NAME}` },
  { name: 'robots', content: 'noindex' },
];

export function ErrorBoundary() {
  return <RouteError />;
}
