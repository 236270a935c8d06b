/**
 * What the home screen says about its data (docs/architecture.md §The feed): a load failure, demo
 * data, a live feed not set up yet (its GBIS ids unknown), stale data with its age, or service hours over. The one live region of the page, so a
 * screen reader hears these changes and not every 4-second refresh of the cards.
 */
import type { FeedStatus } from '../../contract/bus';
import { BUS_LOAD_FAILED } from '~/utils/arrival';

/**
 * `failed` when the bus data could not be loaded (docs/product.md §7: the failure itself is only logged);
 * `lostAgeSec` when the refreshes fail and the data shown is that old (seconds; useLiveTimeLeft);
 * `feed` is absent when the api does not send it (an extra of the contract): nothing to say then.
 */
export function FeedNotices({
  failed,
  lostAgeSec = null,
  feed,
}: {
  failed: boolean;
  lostAgeSec?: number | null;
  feed?: FeedStatus;
}) {
  return (
    <div className="feed-notices" role="status">
      {failed ? (
        <p className="notice notice--error">{BUS_LOAD_FAILED}</p>
      ) : (
        <>
          {lostAgeSec !== null && <p className="notice notice--error">{connectionLostText(lostAgeSec)}</p>}
          {feed && (
            <>
              {feed.source === 'demo' && (
                <p className="notice">
                  <span className="badge">데모 데이터</span> 시뮬레이션으로 만든 가상의 운행 정보이며, 실제 버스 위치가
                  아닙니다.
                </p>
              )}
              {feed.idsUnknown && (
                <p className="notice notice--warn">
                  실시간 버스 정보를 준비하고 있습니다. 관리자가 버스 노선 설정을 마치면 도착 정보가 표시됩니다.
                </p>
              )}
              {/* The age of the data shown is the lost connection's notice's to say. */}
              {feed.stale && lostAgeSec === null && <p className="notice notice--warn">{staleText(feed.ageSec)}</p>}
              {!feed.inService && <p className="notice">운행 시간이 아닙니다 (05:00–24:30)</p>}
            </>
          )}
        </>
      )}
    </div>
  );
}

/** The feed's own delay, with its age when known (docs/product.md §2.3 Data states). */
function staleText(ageSec: number | null): string {
  const notice = '실시간 정보가 지연되고 있습니다';
  return ageSec === null ? notice : `${notice} (${wholeMinutes(ageSec)}분 전 정보)`;
}

/** The refreshes fail: how old the data shown is, in whole minutes, at least 1 (docs/product.md §2.3 Data states). */
function connectionLostText(ageSec: number): string {
  return `연결이 끊겨 ${wholeMinutes(ageSec)}분 전 정보입니다`;
}

/** Seconds as whole minutes, at least 1, so old data never looks current. */
function wholeMinutes(ageSec: number): number {
  return Math.max(1, Math.floor(ageSec / 60));
}
