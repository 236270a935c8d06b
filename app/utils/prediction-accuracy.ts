/**
 * How the down tab and the FAQ state the predictions' accuracy, so riders know how far to trust them: the estimate's
 * mean absolute error over the last PREDICTION_ACCURACY_DAYS (14) service days, from the api's
 * daily backtest (GET /api/bus/accuracy), in whole minutes.
 */
import type { PredictionAccuracy } from '../../contract/bus';
import type { MessageParams } from '~/i18n/i18n';

/**
 * The sentence, by `sentence` (the message accuracy.sentence in the page's language): "지난 2주 동안
 * 예상 출발 시각의 평균 오차는 약 N분입니다." with N the estimate's MAE rounded to the minute ("1분
 * 미만" under 30 s); null when there is no figure (no history yet, or not computed).
 */
export function accuracySentence(
  accuracy: PredictionAccuracy,
  sentence: (params: MessageParams) => string,
): string | null {
  const { maeSec } = accuracy.estimate;
  if (maeSec === null) return null;
  return sentence({ minutes: Math.round(maeSec / 60) });
}
