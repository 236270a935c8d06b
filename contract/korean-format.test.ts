/** contract/korean-format.ts against Intl's ko-KR number and date formats, which it stands in for. */
import {
  formatCount,
  formatEnglishDate,
  formatEnglishMonthDay,
  formatKoreanDate,
  formatKoreanMonthDay,
} from './korean-format';

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

describe('formatKoreanDate and formatKoreanMonthDay', () => {
  it("write a calendar day as Intl's ko-KR long date and month-day do", () => {
    const long = new Intl.DateTimeFormat('ko-KR', { dateStyle: 'long', timeZone: 'UTC' });
    const monthDay = new Intl.DateTimeFormat('ko-KR', { month: 'long', day: 'numeric', timeZone: 'UTC' });
    for (let at = Date.parse('2024-01-01T00:00:00Z'); at < Date.parse('2028-01-01T00:00:00Z'); at += 86_400_000) {
      const day = new Date(at).toISOString().slice(0, 10);
      expect(formatKoreanDate(day), day).toBe(long.format(at));
      expect(formatKoreanMonthDay(day), day).toBe(monthDay.format(at));
    }
    expect(formatKoreanDate('2024-06-04')).toBe('2024년 6월 4일');
    expect(formatKoreanMonthDay('2026-11-09')).toBe('11월 9일');
  });
});

describe('formatEnglishDate and formatEnglishMonthDay', () => {
  it("write a calendar day as Intl's en-US medium date and short month-day do", () => {
    const medium = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeZone: 'UTC' });
    const monthDay = new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', timeZone: 'UTC' });
    for (let at = Date.parse('2024-01-01T00:00:00Z'); at < Date.parse('2028-01-01T00:00:00Z'); at += 86_400_000) {
      const day = new Date(at).toISOString().slice(0, 10);
      expect(formatEnglishDate(day), day).toBe(medium.format(at));
      expect(formatEnglishMonthDay(day), day).toBe(monthDay.format(at));
    }
    expect(formatEnglishMonthDay('2026-11-28')).toBe('Nov 28');
  });
});
