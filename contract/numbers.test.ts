/** contract/numbers.ts against Intl's ko-KR number format, which it stands in for. */
import { formatCount } from './numbers';

describe('formatCount', () => {
  it("groups an integer's digits by three as ko-KR does", () => {
    expect(formatCount(52_000)).toBe('52,000');
    expect(formatCount(0)).toBe('0');
    expect(formatCount(999)).toBe('999');
    expect(formatCount(1_000)).toBe('1,000');
    expect(formatCount(1_234_567)).toBe('1,234,567');
    expect(formatCount(-26_000)).toBe('-26,000');
    const koKR = new Intl.NumberFormat('ko-KR');
    for (let value = 1; value < Number.MAX_SAFE_INTEGER; value = value * 7 + 3) {
      expect(formatCount(value)).toBe(koKR.format(value));
      expect(formatCount(-value)).toBe(koKR.format(-value));
    }
  });
});
