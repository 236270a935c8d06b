/** The figures of a managed ad on its edit card: the paid period, today's counters and the totals. */
import type { ReactNode } from 'react';
import type { ManagedAd } from '../../../contract/ads';
import { formatKstPeriod } from '../../../contract/kst';
import { formatCount } from '../../../contract/korean-format';

export function AdFigures({ ad }: { ad: ManagedAd }) {
  return (
    <dl className="ad-card__figures">
      {ad.startsAt && ad.endsAt && <Figure term="게재 기간">{formatKstPeriod(ad.startsAt, ad.endsAt)}</Figure>}
      {ad.todayImpressions !== undefined && (
        <Figure term="오늘">
          <Counts impressions={ad.todayImpressions} clicks={ad.todayClicks} />
        </Figure>
      )}
      {ad.impressions !== undefined && (
        <Figure term="누적">
          <Counts impressions={ad.impressions} clicks={ad.clicks} />
        </Figure>
      )}
    </dl>
  );
}

function Figure({ term, children }: { term: string; children: ReactNode }) {
  return (
    <div>
      <dt>{term}</dt>
      <dd>{children}</dd>
    </div>
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
