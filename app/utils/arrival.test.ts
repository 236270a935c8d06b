import { arrivalTone, formatKstTime } from '~/utils/arrival';

describe('arrivalTone (spec §9)', () => {
  it('has no arrival information at 0 minutes or less', () => {
    expect(arrivalTone(0)).toBe('none');
    expect(arrivalTone(-2)).toBe('none');
  });

  it('is soon (red) from 1 to 4 minutes', () => {
    expect(arrivalTone(1)).toBe('soon');
    expect(arrivalTone(4)).toBe('soon');
  });

  it('is normal above 4 minutes', () => {
    expect(arrivalTone(5)).toBe('normal');
  });
});

describe('formatKstTime', () => {
  it('shows an instant as HH:mm in Asia/Seoul', () => {
    expect(formatKstTime('2026-09-02T23:05:00.000Z')).toBe('08:05');
    expect(formatKstTime('2026-09-02T15:30:00Z')).toBe('00:30');
  });
});
