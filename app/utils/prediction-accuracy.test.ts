import type { PredictionAccuracy } from '../../contract/bus';
import { accuracySentence } from './prediction-accuracy';
import common from '~/i18n/compiled/ko/common.js';

const ko = common['accuracy.sentence'];

const withMae = (maeSec: number | null): PredictionAccuracy => ({
  source: 'gbis',
  computedAt: '2026-11-23T15:40:00.000Z',
  window: { days: 14, firstDate: '2026-11-09', lastDate: '2026-11-22' },
  estimate: { etaScore: maeSec === null ? null : 80, maeSec, queries: maeSec === null ? 0 : 38664 },
  dayBefore: { etaScore: 41.4, maeSec: 328, queries: 38664 },
  tolerances: [],
});

describe('accuracySentence', () => {
  it("states the estimate's mean error over the last 2 weeks in whole minutes", () => {
    expect(accuracySentence(withMae(104), ko)).toBe('지난 2주 동안 예상 출발 시각의 평균 오차는 약 2분입니다.');
    expect(accuracySentence(withMae(89), ko)).toBe('지난 2주 동안 예상 출발 시각의 평균 오차는 약 1분입니다.');
    expect(accuracySentence(withMae(330), ko)).toBe('지난 2주 동안 예상 출발 시각의 평균 오차는 약 6분입니다.');
  });

  it('says under a minute rather than "about 0 minutes"', () => {
    expect(accuracySentence(withMae(29), ko)).toBe('지난 2주 동안 예상 출발 시각의 평균 오차는 1분 미만입니다.');
  });

  it('has no sentence without a figure', () => {
    expect(accuracySentence(withMae(null), ko)).toBeNull();
  });
});
