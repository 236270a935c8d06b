/** The figures of a managed ad on its edit card: the paid period, today's counters and the totals. */
import type { ManagedAd } from '../../../contract/ads';
import { formatKstPeriod } from '~/utils/kst';

export function AdFigures({ ad }: { ad: ManagedAd }) {
  return (
    <dl className="ad-card__figures">
      {ad.startsAt && ad.endsAt && (
        <div>
          <dt>게재 기간</dt>
          <dd>{formatKstPeriod(ad.startsAt, ad.endsAt)}</dd>
        </div>
      )}
      {ad.todayImpressions !== undefined && (
        <div>
          <dt>오늘</dt>
          <dd>
            노출 {ad.todayImpressions.toLocaleString('ko-KR')} · 클릭 {(ad.todayClicks ?? 0).toLocaleString('ko-KR')}
          </dd>
        </div>
      )}
      {ad.impressions !== undefined && (
        <div>
          <dt>누적</dt>
          <dd>
            노출 {ad.impressions.toLocaleString('ko-KR')} · 클릭 {(ad.clicks ?? 0).toLocaleString('ko-KR')}
          </dd>
        </div>
      )}
    </dl>
  );
}
