/**
 * /admin-only/inquiries: the inquiries, bug reports and suggestions sent from /contact (spec §2,
 * §3 Inquiry), newest first, each with its text as written (line breaks kept), the sender's e-mail
 * when given and the time in KST.
 */
import { json, type LoaderFunctionArgs } from '@remix-run/node';
import { useLoaderData, type MetaFunction } from '@remix-run/react';
import { RouteError } from '~/components/route-error';
import { formatKstDateTime } from '~/utils/kst';
import { SITE_NAME } from '~/components/site-header';
import { listInquiries } from '~/models/admin.server';
import { requireAdmin } from '~/utils/session.server';
import { UpstreamError } from '~/utils/upstream.server';

const LOAD_FAILED = '문의 목록을 불러오지 못했습니다.';

export async function loader({ request, context }: LoaderFunctionArgs) {
  const { username } = await requireAdmin(request, context);
  try {
    // Newest first, as the api answers them.
    return json({ inquiries: await listInquiries(context, username) });
  } catch (error) {
    if (!(error instanceof UpstreamError)) throw error;
    console.error('[admin/inquiries] the list did not load:', error.message);
    return json({ inquiries: null }, { status: 502 });
  }
}

export default function Inquiries() {
  const { inquiries } = useLoaderData<typeof loader>();
  return (
    <section aria-labelledby="inquiries-title" className="admin-page">
      <h1 id="inquiries-title" className="admin-page__title">
        문의 목록
      </h1>
      {inquiries === null ? (
        <p className="admin-error" role="alert">
          {LOAD_FAILED}
        </p>
      ) : inquiries.length === 0 ? (
        <p>접수된 문의가 없습니다.</p>
      ) : (
        <>
          <p className="field__hint">최근 문의 {inquiries.length}건, 최신순</p>
          <ol className="inquiry-list">
            {inquiries.map((inquiry) => (
              <li key={inquiry.id}>
                <article className="inquiry" aria-labelledby={`inquiry-${inquiry.id}`}>
                  <h2 id={`inquiry-${inquiry.id}`} className="inquiry__meta">
                    <time dateTime={inquiry.createdAt}>{formatKstDateTime(inquiry.createdAt)}</time>
                    <span className="sr-only"> 문의</span>
                  </h2>
                  <p className="inquiry__email">
                    이메일: {inquiry.email ? <a href={`mailto:${inquiry.email}`}>{inquiry.email}</a> : '(없음)'}
                  </p>
                  <p className="inquiry__content">{inquiry.content}</p>
                </article>
              </li>
            ))}
          </ol>
        </>
      )}
    </section>
  );
}

export const meta: MetaFunction = () => [{ title: `문의 목록 | ${SITE_NAME}` }, { name: 'robots', content: 'noindex' }];

export function ErrorBoundary() {
  return <RouteError />;
}
