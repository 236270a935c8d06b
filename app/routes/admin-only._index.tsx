/**
 * /admin-only: the admin home (docs/product.md §2): the four buttons (web and chatbot ad application
 * lists, web and chatbot ad post/edit); the notice, bus information status and setup, inquiry and
 * activity pages are in the menu above. While the live feed's GBIS ids are not set up, it points to
 * the setup page (docs/gbis.md §Setup page); while e-mail is off, or e-mails failed, to the mail page.
 */
import { json, type LoaderFunctionArgs } from '@remix-run/node';
import { Link, useLoaderData, type MetaFunction } from '@remix-run/react';
import { RouteError } from '~/components/route-error';
import { SITE_NAME } from '~/components/site-header';
import { getGbisSetup } from '~/models/gbis.server';
import { getMailOverview } from '~/models/mail.server';
import { requireAdmin } from '~/models/session.server';
import { rethrowUnlessUpstream } from '~/models/upstream.server';
import { MAIL_OFF, sendingFailedSince } from '~/utils/admin-mail';

const BUTTONS = [
  { to: '/admin-only/ads/web', label: '웹 배너 광고 요청 목록' },
  { to: '/admin-only/ads/kakao', label: '챗봇 광고 요청 목록' },
  { to: '/admin-only/ads/edit/web', label: '웹 배너 광고 게시 / 수정' },
  { to: '/admin-only/ads/edit/kakao', label: '챗봇 광고 게시 / 수정' },
] as const;

export async function loader({ request, context }: LoaderFunctionArgs) {
  const { username } = await requireAdmin(request, context);
  // Only hints: a setup or a mail state that does not load leaves the home as it is.
  const hint = <T,>(read: Promise<T>) =>
    read.catch((error: unknown) => {
      rethrowUnlessUpstream(error);
      return null;
    });
  const [setup, mail] = await Promise.all([
    hint(getGbisSetup(context, username)),
    hint(getMailOverview(context, username)),
  ]);
  return json({
    setupNeeded: setup?.feed === 'gbis' && !setup.idsKnown,
    mailOff: mail?.enabled === false,
    mailFailingSince: mail?.enabled ? (mail.failing?.since ?? null) : null,
    failedMail: mail?.failedCount ?? 0,
  });
}

export default function AdminHome() {
  const { setupNeeded, mailOff, mailFailingSince, failedMail } = useLoaderData<typeof loader>();
  return (
    <section aria-labelledby="admin-home-title" className="admin-page">
      <h1 id="admin-home-title" className="admin-page__title">
        관리자 홈
      </h1>
      {setupNeeded && (
        <p className="admin-error">
          실시간 버스 정보가 아직 설정되지 않아 수집하지 않고 있습니다.{' '}
          <Link to="/admin-only/gbis">버스 정보 설정</Link>에서 GBIS 정류소와 노선 id를 찾아 저장해주세요.
        </p>
      )}
      {mailOff && (
        <p className="admin-error">
          {MAIL_OFF} 설정 방법은 <Link to="/admin-only/mail">메일 발송</Link>에 있습니다.
        </p>
      )}
      {mailFailingSince && (
        <p className="admin-error">
          {sendingFailedSince(mailFailingSince)} <Link to="/admin-only/mail">메일 발송</Link>에서 메일 서버의 응답을
          확인해주세요.
        </p>
      )}
      {failedMail > 0 && (
        <p className="admin-error">
          보내지 못한 메일이 {failedMail}통 있습니다. <Link to="/admin-only/mail">메일 발송</Link>에서 확인하고 다시
          보내주세요.
        </p>
      )}
      <ul className="admin-home__buttons">
        {BUTTONS.map((button) => (
          <li key={button.to}>
            <Link to={button.to} className="button button--primary admin-home__button">
              {button.label}
            </Link>
          </li>
        ))}
      </ul>
    </section>
  );
}

export const meta: MetaFunction = () => [{ title: `관리자 홈 | ${SITE_NAME}` }, { name: 'robots', content: 'noindex' }];

export function ErrorBoundary() {
  return <RouteError />;
}
