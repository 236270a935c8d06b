/**
 * /admin-only/ads/{type}: the ad application list of one type (docs/product.md §2.10 Admin pages, §7
 * GET /api/ads/{type}/submit): titles, newest first, pending ones marked. A type other than web or
 * kakao shows 'invalid ad type' and makes no call (docs/product.md §2, §5).
 */
import { json, type LoaderFunctionArgs } from '@remix-run/node';
import { Link, useLoaderData, type MetaFunction } from '@remix-run/react';
import { ADMIN_MESSAGES } from '../../contract/admin';
import { AD_TYPE_LABELS, AdTypeSchema } from '../../contract/ads';
import { RouteError } from '~/components/route-error';
import { SITE_NAME } from '~/components/site-header';
import { listAdApplications } from '~/models/ads.server';
import { APPLICATION_STATUS_LABELS } from '~/utils/admin-ads';
import { formatKstDateTime } from '../../contract/kst';
import { requireAdmin } from '~/models/session.server';
import { rethrowUnlessUpstream } from '~/models/upstream.server';
import { consoleFor } from '../../lib/observability/request-tag';

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const { username } = await requireAdmin(request, context);
  const type = AdTypeSchema.safeParse(params.type);
  if (!type.success) {
    consoleFor(context.reqId).error(`[admin] ad application list: invalid ad type "${params.type}"`);
    return json({ type: null, applications: [], failed: false } as const, { status: 404 });
  }
  try {
    const applications = await listAdApplications(context, username, type.data);
    return json({ type: type.data, applications, failed: false });
  } catch (error) {
    rethrowUnlessUpstream(error);
    consoleFor(context.reqId).error('[admin] ad application list:', error.message);
    return json({ type: type.data, applications: [], failed: true }, { status: 502 });
  }
}

export default function AdApplicationList() {
  const { type, applications, failed } = useLoaderData<typeof loader>();
  if (!type) {
    return (
      <section className="admin-page" aria-labelledby="applications-title">
        <h1 id="applications-title" className="admin-page__title">
          광고 요청 목록
        </h1>
        <p className="admin-error" role="alert">
          {ADMIN_MESSAGES.invalidType}
        </p>
      </section>
    );
  }
  return (
    <section className="admin-page" aria-labelledby="applications-title">
      <h1 id="applications-title" className="admin-page__title">
        {AD_TYPE_LABELS[type]} 요청 목록
      </h1>
      {failed ? (
        <p className="admin-error" role="alert">
          요청 목록을 불러오지 못했습니다. 잠시 후 다시 시도해주세요.
        </p>
      ) : applications.length === 0 ? (
        <p className="empty">{ADMIN_MESSAGES.emptyApplicationList}</p>
      ) : (
        <ul className="application-list">
          {applications.map((application) => (
            <li key={application.id}>
              <Link to={`/admin-only/ads/${type}/confirm/${application.id}`} className="application-list__item">
                <span className="application-list__title">{application.title}</span>
                <span className="application-list__meta">
                  {application.status && (
                    <span className={`badge badge--${application.status}`}>
                      {APPLICATION_STATUS_LABELS[application.status]}
                    </span>
                  )}
                  {application.createdAt && (
                    <time dateTime={application.createdAt}>{formatKstDateTime(application.createdAt)}</time>
                  )}
                </span>
              </Link>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

export const meta: MetaFunction = () => [
  { title: `광고 요청 목록 | ${SITE_NAME}` },
  { name: 'robots', content: 'noindex' },
];

export function ErrorBoundary() {
  return <RouteError />;
}
