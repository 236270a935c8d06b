/** The figures of a managed ad on its edit card: the paid period, today's counters and the totals. */
import { Fact } from '~/components/fact';
import type { ManagedAd } from '../../../contract/ads';
import { formatKstPeriod } from '../../../contract/kst';
import { formatCount } from '../../../contract/korean-format';

export function AdFigures({ ad }: { ad: ManagedAd }) {
  return (
    <dl className="ad-card__figures">
      {ad.startsAt && ad.endsAt && <Fact term="게재 기간">{formatKstPeriod(ad.startsAt, ad.endsAt)}</Fact>}
      {ad.todayImpressions !== undefined && (
        <Fact term="오늘">
          <Counts impressions={ad.todayImpressions} clicks={ad.todayClicks} />
        </Fact>
      )}
      {ad.impressions !== undefined && (
        <Fact term="누적">
          <Counts impressions={ad.impressions} clicks={ad.clicks} />
        </Fact>
      )}
    </dl>
  );
}

/** Views and clicks, in Korean number format. */
function Counts({ impressions, clicks }: { impressions: number; clicks: number | undefined }) {
  return (
    <>
      노출 {formatCount(impressions)} · 클릭 {formatCount(clicks ?? 0)}
    </>
  );
}
