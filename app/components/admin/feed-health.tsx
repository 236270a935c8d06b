/** The bus feed's health on the admin feed page (docs/product.md §2.2 Admin routes), as a description list. */
import type { AdminFeedStatus } from '../../../contract/admin-feed';
import { formatKstDateTime } from '../../../contract/kst';
import { DAY_TYPE_NAMES } from '../../../contract/transit';

const SOURCE_LABELS: Record<AdminFeedStatus['source'], string> = {
  demo: '데모 시뮬레이터',
  gbis: '경기도 버스정보(GBIS)',
};
const ROLE_LABELS: Record<AdminFeedStatus['role'], string> = {
  leader: '버스 정보를 받아 오는 서버',
  follower: '다른 서버가 받아 온 버스 정보를 보여주는 서버',
};

/**
 * One route's timetable change as the admins read it: since when, on which day types, and today's
 * first bus and headway before and since, e.g. "1150번: 2026-10-22부터 평일 (첫차 05:40 → 06:15,
 * 배차 간격 약 20분 → 14분)".
 */
function timetableChangeText(change: AdminFeedStatus['timetableChanges'][number]): string {
  const types = change.dayTypes.map((type) => DAY_TYPE_NAMES[type]).join('·');
  const { before, after } = change;
  const shapes =
    before && after
      ? ` (첫차 ${before.first} → ${after.first}, 배차 간격 약 ${before.headwayMin}분 → ${after.headwayMin}분)`
      : '';
  return `${change.routeNo}번: ${change.since}부터 ${types}${shapes}`;
}

/**
 * Where the feed comes from, when it last succeeded, whether it is stale, today's GBIS calls with
 * each dataset's plan, and the timetable changes the predictions follow.
 */
export function FeedHealth({ feed }: { feed: AdminFeedStatus }) {
  const calls = (spent: number) => `${spent}${feed.dailyQuota === null ? '' : ` / ${feed.dailyQuota}`}회`;
  return (
    <dl className="admin-dl">
      <dt>데이터 출처</dt>
      <dd>{SOURCE_LABELS[feed.source]}</dd>
      <dt>마지막 정상 수집</dt>
      <dd>
        {feed.takenAt ? (
          <>
            <time dateTime={feed.takenAt}>{formatKstDateTime(feed.takenAt)}</time>
            {feed.ageSec !== null && ` (${feed.ageSec}초 전)`}
          </>
        ) : (
          '아직 없음'
        )}
      </dd>
      <dt>지연 여부</dt>
      <dd className={feed.stale ? 'admin-error' : undefined}>
        {feed.stale ? '예 (오래된 정보를 보여주는 중)' : '아니요'}
      </dd>
      <dt>운행 시간</dt>
      <dd>{feed.inService ? '운행 중 (05:00–24:30)' : '운행 시간 아님'}</dd>
      <dt>마지막 오류</dt>
      <dd>{feed.lastError ?? '없음'}</dd>
      <dt>도착 정보 API</dt>
      <dd>
        오늘 호출 {calls(feed.callsToday.arrivals)}
        {feed.plan &&
          `. 계획: 하루 ${feed.plan.arrivals.callsPerDay}회, 평균 ${feed.plan.arrivals.meanIntervalSec}초마다 ` +
            '(버스가 멀거나 없을 때는 덜 자주)'}
      </dd>
      <dt>위치 정보 API</dt>
      <dd>
        오늘 호출 {calls(feed.callsToday.locations)}
        {feed.plan &&
          `. 계획: 하루 ${feed.plan.locations.callsPerDay}회, 노선마다 평균 ${feed.plan.locations.meanIntervalSec}초마다 ` +
            '(캠퍼스에서 출발할 무렵에 더 자주)'}
      </dd>
      <dt>시간표 변경</dt>
      <dd>
        {feed.timetableChanges.length === 0 ? (
          '감지된 변경 없음'
        ) : (
          <ul>
            {feed.timetableChanges.map((change) => (
              <li key={change.routeNo}>{timetableChangeText(change)}</li>
            ))}
          </ul>
        )}
      </dd>
      <dt>관리자가 정한 시간표 변경</dt>
      <dd>
        {feed.timetableRestarts.length === 0 ? (
          '없음'
        ) : (
          <ul>
            {feed.timetableRestarts.map((restart) => (
              <li key={restart.routeNo}>
                {restart.routeNo}번: {restart.since}부터 ({restart.actor}, {formatKstDateTime(restart.at)})
              </li>
            ))}
          </ul>
        )}
      </dd>
      <dt>이 서버의 역할</dt>
      <dd>
        {ROLE_LABELS[feed.role]} <code>{feed.role}</code>
      </dd>
    </dl>
  );
}
