/**
 * /admin-only/audit: the audit log, so the admins can see who changed what: the latest 200 admin
 * actions, newest first: when (KST), who, what, on what, and the state before and after as compact
 * JSON, folded in a <details> so a long value does not stretch the table. Each entry is a row headed
 * by its time; on a phone the rows stack (StackedTable).
 */
import { json, type LoaderFunctionArgs } from '@remix-run/node';
import { useLoaderData, type MetaFunction } from '@remix-run/react';
import { AUDIT_PAGE_SIZE, type AuditAction } from '../../contract/admin';
import { AdminPage } from '~/components/admin/admin-page';
import { ListStates } from '~/components/admin/list-states';
import { StackedTable } from '~/components/admin/stacked-table';
import { RouteError } from '~/components/route-error';
import { formatKstDateTime } from '../../contract/kst';
import { SITE_NAME } from '~/components/site-header';
import { listAudit } from '~/models/admin.server';
import { requireAdmin } from '~/models/session.server';
import { rethrowUnlessUpstream } from '~/models/upstream.server';
import { auditTargetLabel } from '~/utils/audit-target.server';
import { consoleFor } from '../../lib/observability/request-tag';

const LOAD_FAILED = '활동 기록을 불러오지 못했습니다.';

/** Contract AUDIT_ACTIONS in Korean. */
const ACTION_LABELS: Record<AuditAction, string> = {
  'sign-in': '로그인',
  'sign-in-failed': '로그인 실패',
  'sign-out': '로그아웃',
  'admin-created': '관리자 생성',
  'password-reset': '비밀번호 재설정',
  approve: '승인',
  reject: '거절',
  edit: '수정',
  reorder: '순서 변경',
  delete: '삭제',
  notice: '공지 변경',
  reply: '문의 답변',
  resend: '메일 다시 보내기',
  'gbis-config': '버스 정보 설정',
  'timetable-restart': '시간표 학습 다시 시작',
};

export async function loader({ request, context }: LoaderFunctionArgs) {
  const { username } = await requireAdmin(request, context);
  try {
    const entries = await listAudit(context, username);
    // The api answers the latest AUDIT_PAGE_SIZE, newest first; the JSON is made here, once.
    const rows = entries.map(({ before, after, ...entry }) => ({
      ...entry,
      // Named here, on the server: the page's script carries no table of names.
      targetLabel: auditTargetLabel(entry.target),
      change: before === null && after === null ? null : `${compact(before)} → ${compact(after)}`,
    }));
    return json({ rows });
  } catch (error) {
    rethrowUnlessUpstream(error);
    consoleFor(context.reqId).error('[admin/audit] the log did not load:', error.message);
    return json({ rows: null }, { status: 502 });
  }
}

export default function AuditLog() {
  const { rows } = useLoaderData<typeof loader>();
  return (
    <AdminPage id="audit" title="활동 기록">
      <ListStates items={rows} failed={LOAD_FAILED} empty="기록이 없습니다.">
        {(rows) => (
          <StackedTable
            caption={`최근 ${rows.length}건, 최신순 (최대 ${AUDIT_PAGE_SIZE}건)`}
            columns={['시각', '관리자', '작업', '대상', '변경 내용']}
            rows={rows.map((row) => ({
              key: String(row.id),
              cells: [
                <time dateTime={row.at} className="admin-table__nowrap">
                  {formatKstDateTime(row.at)}
                </time>,
                row.actor,
                <span className="admin-table__nowrap">{ACTION_LABELS[row.action]}</span>,
                <span>
                  {row.targetLabel} <code className="admin-table__code">{row.target}</code>
                </span>,
                row.change === null ? (
                  '없음'
                ) : (
                  <details className="audit-change">
                    <summary>보기</summary>
                    <pre className="audit-change__json">{row.change}</pre>
                  </details>
                ),
              ],
            }))}
          />
        )}
      </ListStates>
    </AdminPage>
  );
}

/** A before/after value as one line of JSON; "없음" for nothing. */
function compact(value: unknown): string {
  return value === null || value === undefined ? '없음' : JSON.stringify(value);
}

export const meta: MetaFunction = () => [{ title: `활동 기록 | ${SITE_NAME}` }, { name: 'robots', content: 'noindex' }];

export function ErrorBoundary() {
  return <RouteError />;
}
