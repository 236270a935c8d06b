import { formatCountdown } from '~/utils/countdown';

describe('formatCountdown', () => {
  it('shows seconds as mm:ss', () => {
    expect(formatCountdown(4)).toBe('00:04');
    expect(formatCountdown(0)).toBe('00:00');
    expect(formatCountdown(65)).toBe('01:05');
    expect(formatCountdown(600)).toBe('10:00');
  });

  it('rounds fractions up and never goes below 00:00', () => {
    expect(formatCountdown(3.2)).toBe('00:04');
    expect(formatCountdown(-3)).toBe('00:00');
  });
});
