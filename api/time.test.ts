import { TZDate } from '@date-fns/tz';
import { addDays } from 'date-fns/addDays';
import { format } from 'date-fns/format';
import { addServiceDays, dayType, isInService, publicHolidaysOf, secondsUntilService, serviceClock } from './time';

describe('KST business time', () => {
  it('puts 00:20 KST on the previous service day, past 24:00', () => {
    expect(serviceClock(new Date('2026-11-22T15:20:00Z'))).toEqual({ serviceDate: '2026-11-22', minuteOfDay: 1460 });
    expect(isInService(new Date('2026-11-22T15:20:00Z'))).toBe(true);
  });

  it("answers TZDate's Asia/Seoul service day and minute from 1990 to 2100", () => {
    // Every 97 hours and 7.013 s: each hour of the day and each second of the minute come round.
    for (let at = Date.parse('1990-01-01T00:00:00Z'); at < Date.parse('2100-01-01T00:00:00Z'); at += 349_207_013) {
      const kst = new TZDate(at, 'Asia/Seoul');
      const minutes = kst.getHours() * 60 + kst.getMinutes() + kst.getSeconds() / 60 + kst.getMilliseconds() / 60_000;
      const early = minutes < 30; // 00:00–00:30 belongs to the day before
      expect(serviceClock(new Date(at)), kst.toISOString()).toEqual({
        serviceDate: format(early ? addDays(kst, -1) : kst, 'yyyy-MM-dd'),
        minuteOfDay: early ? minutes + 24 * 60 : minutes,
      });
    }
  });

  it('has no service between 00:30 and 05:00 KST and tells when it starts', () => {
    const at0300 = new Date('2026-11-22T18:00:00Z'); // 03:00 KST on the 23rd
    expect(isInService(at0300)).toBe(false);
    expect(secondsUntilService(at0300)).toBe(2 * 3600);
    expect(isInService(new Date('2026-11-22T20:00:00Z'))).toBe(true); // 05:00 KST
    expect(isInService(new Date('2026-11-22T15:30:00Z'))).toBe(false); // 00:30 KST
  });

  it('classifies weekdays, Saturdays, Sundays and Korean public holidays', () => {
    expect(dayType('2026-11-23')).toBe('weekday'); // Monday
    expect(dayType('2026-11-28')).toBe('saturday');
    expect(dayType('2026-11-29')).toBe('holiday'); // Sunday
    expect(dayType('2026-10-09')).toBe('holiday'); // 한글날, a Friday
    expect(dayType('2026-12-25')).toBe('holiday'); // 성탄절
  });

  it('counts every day of a multi-day holiday and substitute days', () => {
    // 추석 2026: Thursday 24 to Saturday 26 September; the Friday is its middle day.
    expect(dayType('2026-09-24')).toBe('holiday');
    expect(dayType('2026-09-25')).toBe('holiday');
    expect(dayType('2026-09-23')).toBe('weekday');
    // 설날 2027 falls on Sunday 7 February: 6–8 February, and Tuesday the 9th in substitute.
    expect(dayType('2027-02-08')).toBe('holiday');
    expect(dayType('2027-02-09')).toBe('holiday');
    expect(dayType('2027-02-10')).toBe('weekday');
    expect(dayType('2026-03-02')).toBe('holiday'); // 3·1절 (대체공휴일), a Monday
  });

  it('keeps 설날 on its eve, the day and the day after, not one day late as date-holidays lists it', () => {
    // 설날 2026 is Tuesday 17 February: Monday 16 to Wednesday 18 (date-holidays 3.37: 17–19).
    expect(dayType('2026-02-16')).toBe('holiday');
    expect(dayType('2026-02-18')).toBe('holiday');
    expect(dayType('2026-02-19')).toBe('weekday');
    // 2025: Tuesday 28 to Thursday 30 January.
    expect(dayType('2025-01-28')).toBe('holiday');
    expect(dayType('2025-01-31')).toBe('weekday');
    expect(publicHolidaysOf(2026).get('2026-02-16')).toBe('설날');
    // Official lists with their substitute days (인사혁신처): 2024 and 2027.
    const seollal = (year: number) =>
      [...publicHolidaysOf(year)].filter(([, name]) => name.includes('설날')).map(([date]) => date);
    expect(seollal(2024)).toEqual(['2024-02-09', '2024-02-10', '2024-02-11', '2024-02-12']);
    expect(seollal(2027)).toEqual(['2027-02-06', '2027-02-07', '2027-02-08', '2027-02-09']);
    expect(publicHolidaysOf(2028).get('2028-10-03')).toBe('추석·개천절');
  });
});

describe('addServiceDays', () => {
  it('steps KST calendar days across months and years', () => {
    expect(addServiceDays('2026-03-01', -1)).toBe('2026-02-28');
    expect(addServiceDays('2026-12-31', 1)).toBe('2027-01-01');
  });
});
