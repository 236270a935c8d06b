/**
 * /admin-only: the admin home (docs/product.md §2): the four buttons (web and chatbot ad request
 * lists, web and chatbot ad post/edit); the notice, bus information status, inquiry and activity
 * pages are in the menu above.
 */
import { json, type LoaderFunctionArgs } from '@remix-run/node';
import { Link, type MetaFunction } from '@remix-run/react';
import { RouteError } from '~/components/route-error';
import { SITE_NAME } from '~/components/site-header';
import { requireAdmin } from '~/utils/session.server';

const BUTTONS = [
  { to: '/admin-only/ads/web', label: '웹 배너 광고 요청 목록' },
  { to: '/admin-only/ads/kakao', label: '챗봇 광고 요청 목록' },
  { to: '/admin-only/ads/edit/web', label: '웹 배너 광고 게시 / 수정' },
  { to: '/admin-only/ads/edit/kakao', label: '챗봇 광고 게시 / 수정' },
] as const;

export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireAdmin(request, context);
  return json(null);
}

export default function AdminHome() {
  return (
    <section aria-labelledby="admin-home-title" className="admin-page">
      <h1 id="admin-home-title" className="admin-page__title">
        관리자 홈
      </h1>
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
