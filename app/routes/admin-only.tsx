/**
 * The admin area's layout (docs/product.md §2.2 Admin routes): every page under /admin-only but login and setup
 * renders inside it. Its loader needs a session, like every admin route's own loader and action
 * (Remix runs them in parallel, so each checks for itself: requireAdmin).
 */
import { json, type LoaderFunctionArgs } from '@remix-run/node';
import { Form, Link, NavLink, Outlet, useLoaderData, type MetaFunction } from '@remix-run/react';
import { RouteError } from '~/components/route-error';
import { SITE_NAME } from '~/components/site-header';
import { requireAdmin } from '~/models/session.server';

export async function loader({ request, context }: LoaderFunctionArgs) {
  const { username } = await requireAdmin(request, context);
  return json({ username });
}

export default function AdminLayout() {
  const { username } = useLoaderData<typeof loader>();
  return (
    <div className="admin-shell">
      <nav className="admin-nav" aria-label="관리자 메뉴">
        <Link to="/admin-only" className="admin-nav__home">
          관리자
        </Link>
        <ul className="admin-nav__links">
          <li>
            <NavLink to="/admin-only/notice">서비스 공지</NavLink>
          </li>
          <li>
            <NavLink to="/admin-only/feed">버스 정보 상태</NavLink>
          </li>
          <li>
            <NavLink to="/admin-only/gbis">버스 정보 설정</NavLink>
          </li>
          <li>
            <NavLink to="/admin-only/inquiries">문의 목록</NavLink>
          </li>
          <li>
            <NavLink to="/admin-only/mail">메일 발송</NavLink>
          </li>
          <li>
            <NavLink to="/admin-only/audit">활동 기록</NavLink>
          </li>
        </ul>
        <Form method="post" action="/admin-only/logout" className="admin-nav__logout">
          <span className="admin-nav__user">{username}</span>
          <button type="submit" className="button button--small">
            로그아웃
          </button>
        </Form>
      </nav>
      <Outlet />
    </div>
  );
}

export const meta: MetaFunction = () => [{ title: `관리자 | ${SITE_NAME}` }, { name: 'robots', content: 'noindex' }];

export function ErrorBoundary() {
  return <RouteError />;
}
