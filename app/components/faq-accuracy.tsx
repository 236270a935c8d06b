/**
 * The FAQ's accuracy figure (docs/product.md §2.6 FAQ, §11): the last 14 service days' backtest of
 * the down estimates against the day-before baseline, and what "accurate" means, in the page's
 * language (docs/product.md §1 Languages; ADR 032). Durations are written out ("1분 44초",
 * "1 min 44 s") and days by the product's own formatters, never by Intl (ADR 026).
 */
import { PREDICTION_ACCURACY_DAYS, type PredictionAccuracy } from '../../contract/bus';
import { formatEnglishMonthDay, formatKoreanMonthDay } from '../../contract/korean-format';
import { useLocale, useT, type MessageParams } from '~/i18n/i18n';
import { richText } from '~/i18n/rich-text';
import common from '~/i18n/compiled/ko/common.js';
import faq from '~/i18n/compiled/ko/faq.js';
import { accuracySentence } from '~/utils/prediction-accuracy';

type InfoT = (key: keyof typeof faq, params?: MessageParams) => string;

/** The last 14 days' backtest: the estimate against the day-before baseline, and what "accurate" means. */
export function FaqAccuracy({ accuracy }: { accuracy: PredictionAccuracy }) {
  const { window, estimate, dayBefore, tolerances, source } = accuracy;
  const t = useT(faq);
  const commonT = useT(common);
  const monthDay = useLocale() === 'en' ? formatEnglishMonthDay : formatKoreanMonthDay;
  const sentence = accuracySentence(accuracy, (params) => commonT('accuracy.sentence', params));
  if (!window.firstDate || !window.lastDate || estimate.etaScore === null || !sentence) {
    return (
      <p className="faq__accuracy" id="accuracy">
        {t('faq.noFigure', { days: PREDICTION_ACCURACY_DAYS })}
      </p>
    );
  }
  const duration = (seconds: number) => formatDuration(seconds, t);
  const period = t('faq.period', { from: monthDay(window.firstDate), to: monthDay(window.lastDate) });
  const score = Math.round(estimate.etaScore);
  const more = [
    estimate.maeSec === null ? null : t('faq.estimateError', { duration: duration(estimate.maeSec) }),
    dayBefore.etaScore === null
      ? null
      : dayBefore.maeSec === null
        ? t('faq.baseline', { score: Math.round(dayBefore.etaScore) })
        : t('faq.baselineError', { score: Math.round(dayBefore.etaScore), duration: duration(dayBefore.maeSec) }),
  ].flatMap((text) => (text ? [' ', text] : []));
  const [first, last] = [tolerances[0], tolerances.at(-1)];
  return (
    <div className="faq__accuracy" id="accuracy">
      <p>
        <strong>{sentence}</strong>
      </p>
      <p>
        {richText(t('faq.backtest', { period, days: window.days, score }), {
          strong: (words) => <strong>{words}</strong>,
        })}
        {more}
      </p>
      {first && last && (
        <p className="notice-box__small">
          {t('faq.tolerances', {
            lastTo: last.toSec / 60,
            firstTo: first.toSec / 60,
            firstEarly: duration(first.earlySec),
            firstLate: duration(first.lateSec),
            lastFrom: last.fromSec / 60,
            lastEarly: duration(last.earlySec),
            lastLate: duration(last.lateSec),
            windows: tolerances
              .map(({ fromSec, toSec }) => t('faq.window', { from: fromSec / 60, to: toSec / 60 }))
              .join(', '),
          })}
          {source === 'demo' && ` ${t('faq.demoFigure')}`}
        </p>
      )}
    </div>
  );
}

/** Whole seconds as copy in `t`'s language: 104 → "1분 44초" / "1 min 44 s", 45 → "45초", 120 → "2분". */
function formatDuration(seconds: number, t: InfoT): string {
  const minutes = Math.floor(seconds / 60);
  const rest = seconds % 60;
  if (minutes === 0) return t('faq.seconds', { seconds: rest });
  return rest === 0 ? t('faq.minutes', { minutes }) : t('faq.minutesSeconds', { minutes, seconds: rest });
}
