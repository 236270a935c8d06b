/**
 * The 80 % range of a predicted departure (contract DepartureRange) as riders see it: after the
 * estimate's time on the down card, and after each time of the expected times modal, when it is
 * wider than RANGE_SHOWN_OVER_SEC; a narrower one adds nothing to the time, so it is left out.
 * Shown "(22:40~22:44)", said "22시 40분에서 22시 44분 사이". Isomorphic, no date library.
 */
import type { DepartureRange } from '../../contract/bus';
import { useLocale, useT } from '~/i18n/i18n';
import home from '~/i18n/compiled/ko/home.js';
import { formatKstSpokenTime, formatKstTime } from '../../contract/kst';

/** A range at most this wide (seconds, upperAt − lowerAt) is not shown. */
export const RANGE_SHOWN_OVER_SEC = 120;

/** `range` when it is to be shown (wider than RANGE_SHOWN_OVER_SEC); null for none or a narrow one. */
export function shownRange(range: DepartureRange | null | undefined): DepartureRange | null {
  if (!range) return null;
  const widthSec = (Date.parse(range.upperAt) - Date.parse(range.lowerAt)) / 1000;
  return widthSec > RANGE_SHOWN_OVER_SEC ? range : null;
}

/** The range as shown after a time, HH:mm in KST: "(22:40~22:44)". */
export function rangeText(range: DepartureRange): string {
  return `(${formatKstTime(range.lowerAt)}~${formatKstTime(range.upperAt)})`;
}

/**
 * How the page's language says a range and an estimate (app/i18n: range.spoken, estimate.sentence),
 * its times said as the language says them: Korean "22시 40분", English "22:40" (screen readers read it).
 * rangeSpoken: "22시 40분에서 22시 44분 사이" / "between 22:40 and 22:44"; estimateSentence, the
 * down card's estimate after its label 예상: "22시 41분. 대개 22시 40분에서 22시 44분 사이에 출발합니다."
 * / "22:41. It usually leaves between 22:40 and 22:44."
 */
export function useSpokenRange() {
  const t = useT(home);
  const spoken = useLocale() === 'ko' ? formatKstSpokenTime : formatKstTime;
  const rangeSpoken = (range: DepartureRange) =>
    t('range.spoken', { from: spoken(range.lowerAt), to: spoken(range.upperAt) });
  return {
    rangeSpoken,
    estimateSentence: (estimate: string, range: DepartureRange) =>
      t('estimate.sentence', { time: spoken(estimate), range: rangeSpoken(range) }),
  };
}
