/**
 * /admin-only/inquiries: the inquiries, bug reports and suggestions sent from /contact
 * (docs/product.md §2, §3.8 Inquiry), newest first, each with its text as written (line breaks
 * kept), the sender's e-mail when given and the time in KST.
 *
 * Each can be deleted on its sender's request (a sender may ask for their data to be erased:
 * privacy policy 제7조), the way the admin pages delete (admin-only.ads.edit.$type.tsx): delete → a
 * confirm dialog (?delete=id) → the call (the action; the api audits it) → a completion dialog from
 * the flash cookie. The dialogs live in the URL and the cookie, so every step works without
 * JavaScript too.
 */
import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from '@remix-run/node';
import { Link, useLoaderData, type MetaFunction } from '@remix-run/react';
import { AdminPage } from '~/components/admin/admin-page';
import { ListStates } from '~/components/admin/list-states';
import { CompletionDialog, ConfirmActions, Dialog } from '~/components/dialog';
import { RouteError } from '~/components/route-error';
import { formatKstDateTime } from '~/utils/kst';
import { SITE_NAME } from '~/components/site-header';
import { deleteInquiry, listInquiries } from '~/models/admin.server';
import { readForm } from '~/utils/form-data.server';
import { redirectWithFlash, requireAdmin, takeFlash } from '~/utils/session.server';
import { UpstreamError } from '~/utils/upstream.server';

const PAGE = '/admin-only/inquiries';
const LOAD_FAILED = '문의 목록을 불러오지 못했습니다.';
const DELETE_MESSAGES = {
  question: '이 문의를 삭제할까요?',
  irreversible: '삭제한 문의는 되돌릴 수 없습니다.',
  deleted: '문의를 삭제했습니다.',
  gone: '이미 삭제된 문의입니다.',
  failed: '문의를 삭제하지 못했습니다. 잠시 후 다시 시도해주세요.',
} as const;

export async function loader({ request, context }: LoaderFunctionArgs) {
  const admin = await requireAdmin(request, context);
  const { flash, headers } = await takeFlash(context, admin);
  const asked = new URL(request.url).searchParams.get('delete');
  try {
    // Newest first, as the api answers them.
    const inquiries = await listInquiries(context, admin.username);
    // ?delete=id opens the confirm dialog, for an inquiry on the list only.
    const remove = !flash && inquiries.some((inquiry) => String(inquiry.id) === asked) ? Number(asked) : null;
    return json({ inquiries, flash, remove }, { headers });
  } catch (error) {
    if (!(error instanceof UpstreamError)) throw error;
    console.error('[admin/inquiries] the list did not load:', error.message);
    return json({ inquiries: null, flash, remove: null }, { status: 502, headers });
  }
}

export async function action({ request, context }: ActionFunctionArgs) {
  const admin = await requireAdmin(request, context);
  const form = await readForm(request);
  const id = Number(form?.get('id'));
  if (form?.get('intent') !== 'delete' || !Number.isInteger(id) || id <= 0) {
    throw new Response('Bad request', { status: 400 });
  }
  try {
    const deleted = await deleteInquiry(context, admin.username, id);
    const flash = deleted
      ? ({ tone: 'success', message: DELETE_MESSAGES.deleted } as const)
      : ({ tone: 'error', message: DELETE_MESSAGES.gone } as const);
    return redirectWithFlash(context, admin, PAGE, flash);
  } catch (error) {
    if (!(error instanceof UpstreamError)) throw error;
    console.error(`[admin/inquiries] delete ${id}:`, error.message);
    return redirectWithFlash(context, admin, PAGE, { tone: 'error', message: DELETE_MESSAGES.failed });
  }
}

export default function Inquiries() {
  const { inquiries, flash, remove } = useLoaderData<typeof loader>();
  const removing = remove === null ? null : inquiries?.find((inquiry) => inquiry.id === remove);
  return (
    <AdminPage id="inquiries" title="문의 목록">
      <ListStates items={inquiries} failed={LOAD_FAILED} empty="접수된 문의가 없습니다.">
        {(inquiries) => (
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
                    <p>
                      <Link to={`${PAGE}?delete=${inquiry.id}`} className="button button--small" preventScrollReset>
                        삭제<span className="sr-only"> {formatKstDateTime(inquiry.createdAt)} 문의</span>
                      </Link>
                    </p>
                  </article>
                </li>
              ))}
            </ol>
          </>
        )}
      </ListStates>
      {removing && (
        <Dialog
          title={DELETE_MESSAGES.question}
          closeTo={PAGE}
          message={`${formatKstDateTime(removing.createdAt)}에 받은 문의입니다. ${DELETE_MESSAGES.irreversible}`}
        >
          <ConfirmActions page={PAGE} intent="delete" id={removing.id} cancelLabel="취소" confirmLabel="삭제" />
        </Dialog>
      )}
      {flash && <CompletionDialog flash={flash} closeTo={PAGE} />}
    </AdminPage>
  );
}

export const meta: MetaFunction = () => [{ title: `문의 목록 | ${SITE_NAME}` }, { name: 'robots', content: 'noindex' }];

export function ErrorBoundary() {
  return <RouteError />;
}
