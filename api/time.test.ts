import {
  addServiceDays,
  dayType,
  isInService,
  kstDateKey,
  kstInstant,
  publicHolidaysOf,
  secondsUntilService,
  serviceClock,
  toKstIso,
} from './time';

describe('KST business time', () => {
  it('keys instants by their KST calendar date whatever the server TZ', () => {
    expect(kstDateKey(new Date('2026-11-22T15:30:00Z'))).toBe('2026-11-23');
    expect(kstInstant('2026-11-23', 8 * 60).toISOString()).toBe('2026-11-22T23:00:00.000Z');
  });

  it('puts 00:20 KST on the previous service day, past 24:00', () => {
    expect(serviceClock(new Date('2026-11-22T15:20:00Z'))).toEqual({ serviceDate: '2026-11-22', minuteOfDay: 1460 });
    expect(isInService(new Date('2026-11-22T15:20:00Z'))).toBe(true);
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

describe('toKstIso', () => {
  it('writes instants in KST with the +09:00 offset', () => {
    expect(toKstIso(new Date('2026-11-22T23:15:00Z'))).toBe('2026-11-23T08:15:00+09:00');
  });
});

describe('addServiceDays', () => {
  it('steps KST calendar days across months and years', () => {
    expect(addServiceDays('2026-03-01', -1)).toBe('2026-02-28');
    expect(addServiceDays('2026-12-31', 1)).toBe('2027-01-01');
  });
});
