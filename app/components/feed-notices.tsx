/**
 * What the home screen says about its data (docs/architecture.md §The feed): a load failure, demo
 * data, a live feed not set up yet (its GBIS ids unknown), stale data with its age, or service hours over. The one live region of the page, so a
 * screen reader hears these changes and not every 4-second refresh of the cards.
 */
import type { FeedStatus } from '../../contract/bus';
import { useT } from '~/i18n/i18n';
import home from '~/i18n/compiled/ko/home.js';

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
  const t = useT(home);
  return (
    <div className="feed-notices" role="status">
      {failed ? (
        <p className="notice notice--error">{t('notice.loadFailed')}</p>
      ) : (
        <>
          {lostAgeSec !== null && (
            <p className="notice notice--error">{t('notice.lost', { minutes: wholeMinutes(lostAgeSec) })}</p>
          )}
          {feed && (
            <>
              {feed.source === 'demo' && (
                <p className="notice">
                  <span className="badge">{t('notice.demoBadge')}</span>
                  {t('notice.demo')}
                </p>
              )}
              {feed.idsUnknown && <p className="notice notice--warn">{t('notice.notSetUp')}</p>}
              {/* The age of the data shown is the lost connection's notice's to say. */}
              {feed.stale && lostAgeSec === null && (
                <p className="notice notice--warn">
                  {feed.ageSec === null
                    ? t('notice.stale')
                    : t('notice.staleAge', { minutes: wholeMinutes(feed.ageSec) })}
                </p>
              )}
              {!feed.inService && <p className="notice">{t('notice.outOfService')}</p>}
            </>
          )}
        </>
      )}
    </div>
  );
}

/**
 * Seconds as whole minutes, at least 1, so old data never looks current: the age in the feed's own
 * delay (notice.staleAge) and in the lost connection's notice (docs/product.md §2.3 Data states).
 */
function wholeMinutes(ageSec: number): number {
  return Math.max(1, Math.floor(ageSec / 60));
}
