/**
 * /admin-only/mail (메일 발송): whether the deployment sends e-mail (SMTP_URL; off: what to set), how
 * many e-mails wait to be sent, and the ones given up on (an SMTP 5xx, or 24 hours of retries),
 * newest first: what each was, to whom, its subject, attempts, when it was queued (KST) and the
 * last error, with 다시 보내기 (a POST form, so it works without JavaScript) → a completion dialog
 * from the flash cookie.
 */
import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from '@remix-run/node';
import { Form, useLoaderData, useNavigation, type MetaFunction } from '@remix-run/react';
import type { MailOverview, UndeliveredMail } from '../../contract/admin';
import { DetailList } from '~/components/admin/detail-list';
import { AdminPage } from '~/components/admin/admin-page';
import { ListStates, LoadFailed } from '~/components/admin/list-states';
import { CompletionDialog } from '~/components/dialog';
import { RouteError } from '~/components/route-error';
import { SITE_NAME } from '~/components/site-header';
import { getMailOverview, resendMail } from '~/models/mail.server';
import { readForm, serialIdOf, type FormSpec } from '~/utils/form-data.server';
import { formatKstDateTime } from '../../contract/kst';
import { redirectWithFlash, requireAdmin, takeFlash } from '~/models/session.server';
import { rethrowUnlessUpstream } from '~/models/upstream.server';
import { MAIL_OFF, sendingFailedSince } from '~/utils/admin-mail';
import { formatCount } from '../../contract/korean-format';
import { consoleFor } from '../../lib/observability/request-tag';

const PAGE = '/admin-only/mail';
const TITLE = '메일 발송';
/** The resend button's form. */
const FIELDS: FormSpec = { schema: null, also: ['intent', 'id'] };
const LOAD_FAILED = '메일 발송 상태를 불러오지 못했습니다.';
const RESEND_MESSAGES = {
  queued: '메일을 다시 보낼 목록에 넣었습니다. 곧 발송됩니다.',
  gone: '이미 다시 보냈거나 목록에 없는 메일입니다.',
  failed: '메일을 다시 보내지 못했습니다. 잠시 후 다시 시도해주세요.',
} as const;

/** Contract MAIL_KINDS in Korean. */
const KIND_LABELS: Record<UndeliveredMail['kind'], string> = {
  'application-received': '신청 접수 안내',
  'application-admin': '새 신청 알림',
  approved: '승인 안내',
  rejected: '거절 안내',
  'inquiry-admin': '새 문의 알림',
  'inquiry-reply': '문의 답변',
};

export async function loader({ request, context }: LoaderFunctionArgs) {
  const admin = await requireAdmin(request, context);
  const { flash, headers } = await takeFlash(context, admin);
  try {
    return json({ overview: await getMailOverview(context, admin.username), flash }, { headers });
  } catch (error) {
    rethrowUnlessUpstream(error);
    consoleFor(context.reqId).error('[admin/mail] the overview did not load:', error.message);
    return json({ overview: null, flash }, { status: 502, headers });
  }
}

export async function action({ request, context }: ActionFunctionArgs) {
  const admin = await requireAdmin(request, context);
  const form = await readForm(request, FIELDS);
  const id = serialIdOf(form?.get('id'));
  if (form?.get('intent') !== 'resend' || id === null) {
    throw new Response('Bad request', { status: 400 });
  }
  try {
    const queued = await resendMail(context, admin.username, id);
    const flash =
      queued === true
        ? ({ tone: 'success', message: RESEND_MESSAGES.queued } as const)
        : ({ tone: 'error', message: queued?.refused ?? RESEND_MESSAGES.gone } as const);
    return redirectWithFlash(context, admin, PAGE, flash);
  } catch (error) {
    rethrowUnlessUpstream(error);
    consoleFor(context.reqId).error(`[admin/mail] resend ${id}:`, error.message);
    return redirectWithFlash(context, admin, PAGE, { tone: 'error', message: RESEND_MESSAGES.failed });
  }
}

export default function MailPage() {
  const { overview, flash } = useLoaderData<typeof loader>();
  return (
    <AdminPage id="mail" title={TITLE}>
      {overview ? (
        <>
          <MailState overview={overview} />
          <section aria-labelledby="mail-failed-title" className="admin-section">
            <h2 id="mail-failed-title" className="admin-section__title">
              보내지 못한 메일
            </h2>
            <ListStates items={overview.failed} failed={LOAD_FAILED} empty="실패한 메일이 없습니다.">
              {(failed) => (
                <>
                  <p className="field__hint">
                    {overview.failedCount > failed.length
                      ? `${overview.failedCount}통 가운데 최근 ${failed.length}통, 최신순.`
                      : `${failed.length}통, 최신순.`}{' '}
                    {overview.enabled
                      ? '다시 보내면 같은 메일을 24시간 동안 다시 시도합니다.'
                      : '이메일 발송을 켜면 다시 보낼 수 있습니다.'}
                  </p>
                  <ol className="mail-list">
                    {failed.map((mail) => (
                      <li key={mail.id}>
                        <FailedMail mail={mail} resendable={overview.enabled} />
                      </li>
                    ))}
                  </ol>
                </>
              )}
            </ListStates>
          </section>
        </>
      ) : (
        <LoadFailed message={LOAD_FAILED} />
      )}
      {flash && <CompletionDialog flash={flash} closeTo={PAGE} />}
    </AdminPage>
  );
}

/** On or off (off: what to set), and how many e-mails wait to be sent. */
function MailState({ overview }: { overview: MailOverview }) {
  return (
    <section aria-labelledby="mail-state-title" className="admin-section">
      <h2 id="mail-state-title" className="admin-section__title">
        발송 상태
      </h2>
      {overview.enabled && overview.failing ? (
        <div className="notice notice--warn" role="alert">
          <p>
            <strong>{sendingFailedSince(overview.failing.since)}</strong> 기다리는 메일은 메일 서버가 받을 때까지 다시
            보냅니다(메일마다 24시간까지).
          </p>
          <p>
            메일 서버의 마지막 응답({formatKstDateTime(overview.failing.lastErrorAt)}):{' '}
            <code>{overview.failing.lastError}</code>
          </p>
          <p className="field__hint">
            서버 환경 변수 <code>SMTP_URL</code>의 주소·계정·비밀번호와 메일 서비스의 상태를 확인해주세요.
          </p>
        </div>
      ) : overview.enabled ? (
        <p>이메일을 보내고 있습니다.</p>
      ) : (
        <>
          <p className="notice notice--warn">{MAIL_OFF}</p>
          <p className="field__hint">
            신청 접수·승인·거절 안내, 관리자 알림, 문의 답변을 이메일로 보내려면 서버 환경 변수 <code>SMTP_URL</code>
            (메일 서버 주소), <code>MAIL_FROM</code>(보내는 사람), <code>PUBLIC_BASE_URL</code>(메일 속 링크의 사이트
            주소)을 설정하고 서버를 다시 시작해주세요. 새 신청과 문의를 알릴 관리자 주소는{' '}
            <code>ADMIN_NOTIFY_EMAILS</code>에 씁니다. 자세한 내용은 README의 E-mail 항목을 참고하세요.
          </p>
        </>
      )}
      <p>
        보낼 차례를 기다리는 메일: <strong>{formatCount(overview.pending)}통</strong>
      </p>
    </section>
  );
}

/** One e-mail given up on, with its resend button while e-mail is on. */
function FailedMail({ mail, resendable }: { mail: UndeliveredMail; resendable: boolean }) {
  const navigation = useNavigation();
  const sending = navigation.state === 'submitting' && navigation.formData?.get('id') === String(mail.id);
  const rows: [string, string][] = [
    ['받는 사람', mail.recipients.join(', ')],
    ['제목', mail.subject],
    ['시도', `${mail.attempts}번`],
    ['마지막 오류', mail.lastError ?? '(기록 없음)'],
  ];
  return (
    <article className="mail-failed" aria-labelledby={`mail-${mail.id}`}>
      <h3 id={`mail-${mail.id}`} className="inquiry__meta">
        <span className="badge">{KIND_LABELS[mail.kind]}</span>{' '}
        <time dateTime={mail.createdAt}>{formatKstDateTime(mail.createdAt)}</time>
      </h3>
      <DetailList rows={rows} />
      {resendable && (
        <Form method="post" action={PAGE} preventScrollReset>
          <input type="hidden" name="id" value={mail.id} />
          <button
            type="submit"
            name="intent"
            value="resend"
            className="button button--small"
            disabled={sending}
            aria-disabled={sending}
          >
            {sending ? '다시 보내는 중…' : '다시 보내기'}
            <span className="sr-only"> {mail.subject}</span>
          </button>
        </Form>
      )}
    </article>
  );
}

export const meta: MetaFunction = () => [{ title: `${TITLE} | ${SITE_NAME}` }, { name: 'robots', content: 'noindex' }];

export function ErrorBoundary() {
  return <RouteError />;
}
