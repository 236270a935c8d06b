/**
 * contract/kst.ts against the time-zone libraries it stands in for (@date-fns/tz's TZDate with
 * date-fns format, and Intl's Asia/Seoul format), in a test zone far from KST: the same
 * answers for every instant.
 */
import { TZDate } from '@date-fns/tz';
import { format } from 'date-fns/format';
import {
  formatKstDate,
  formatKstDateTime,
  formatKstIso,
  formatKstPeriod,
  formatKstSpokenTime,
  formatKstTime,
  kstInstant,
  kstWallClock,
} from './kst';

describe('the KST helper', () => {
  it('shows instants in KST whatever the zone the tests run in', () => {
    expect(Intl.DateTimeFormat().resolvedOptions().timeZone).toBe('America/Los_Angeles');
    expect(formatKstDateTime('2026-09-02T23:05:09.000Z')).toBe('2026-09-03 08:05:09');
    expect(formatKstDate('2026-09-02T15:00:00Z')).toBe('2026-09-03');
    expect(formatKstDate(new Date('2026-11-22T15:30:00Z'))).toBe('2026-11-23');
    expect(formatKstTime('2026-09-02T15:30:00Z')).toBe('00:30');
    expect(formatKstTime(Date.parse('2026-09-02T14:59:00Z'))).toBe('23:59');
  });

  it('writes instants as ISO 8601 in KST with the +09:00 offset, to the second', () => {
    expect(formatKstIso(new Date('2026-11-22T23:15:00Z'))).toBe('2026-11-23T08:15:00+09:00');
    expect(formatKstIso('2026-11-22T23:15:07.999Z')).toBe('2026-11-23T08:15:07+09:00');
  });

  it('finds the instant of a KST date and minute, past 24:00 too', () => {
    expect(kstInstant('2026-11-23', 8 * 60).toISOString()).toBe('2026-11-22T23:00:00.000Z');
    expect(kstInstant('2026-11-23', 24 * 60 + 20).toISOString()).toBe('2026-11-23T15:20:00.000Z');
    expect(kstInstant('2026-12-31', 0.5).toISOString()).toBe('2026-12-30T15:00:30.000Z');
  });

  it('reads the KST wall clock of an instant as numbers', () => {
    expect(kstWallClock(new Date('2026-11-22T15:20:07.250Z'))).toEqual({
      year: 2026,
      month: 11,
      day: 23,
      weekday: 1, // a Monday in KST, still Sunday in UTC
      hour: 0,
      minute: 20,
      second: 7,
      millisecond: 250,
    });
  });

  it('says a time in Korean as screen readers read it, the hour without a leading zero, no minutes on the hour', () => {
    expect(formatKstSpokenTime('2026-11-23T22:41:59+09:00')).toBe('22시 41분');
    expect(formatKstSpokenTime('2026-11-22T23:05:00Z')).toBe('8시 5분');
    expect(formatKstSpokenTime('2026-11-23T08:00:00+09:00')).toBe('8시');
    expect(formatKstSpokenTime('2026-11-22T15:30:00Z')).toBe('0시 30분');
  });

  it('shows a paid period as the KST days it covers, the end day being the one before the end instant', () => {
    expect(formatKstPeriod('2026-08-31T15:00:00.000Z', '2026-09-30T15:00:00.000Z')).toBe('2026-09-01 ~ 2026-09-30');
  });

  it("answers what TZDate with date-fns format and Intl's Asia/Seoul date answered, from 1990 to 2100", () => {
    const enCa = new Intl.DateTimeFormat('en-CA', { timeZone: 'Asia/Seoul' });
    // Every 97 hours and 7 s: each hour of the day and each second of the minute come round.
    for (
      let at = Date.parse('1990-01-01T00:00:00Z');
      at < Date.parse('2100-01-01T00:00:00Z');
      at += 97 * 3_600_000 + 7_013
    ) {
      const iso = new Date(at).toISOString();
      const kst = new TZDate(iso, 'Asia/Seoul');
      expect(formatKstDateTime(iso), iso).toBe(format(kst, 'yyyy-MM-dd HH:mm:ss'));
      expect(formatKstDate(new Date(at)), iso).toBe(enCa.format(new Date(at)));
      expect(formatKstTime(at), iso).toBe(format(kst, 'HH:mm'));
      expect(formatKstIso(new Date(at)), iso).toBe(format(kst, "yyyy-MM-dd'T'HH:mm:ssXXX"));
      expect(kstWallClock(at), iso).toEqual({
        year: kst.getFullYear(),
        month: kst.getMonth() + 1,
        day: kst.getDate(),
        weekday: kst.getDay(),
        hour: kst.getHours(),
        minute: kst.getMinutes(),
        second: kst.getSeconds(),
        millisecond: kst.getMilliseconds(),
      });
      const date = format(kst, 'yyyy-MM-dd');
      const minutes = kst.getHours() * 60 + kst.getMinutes();
      const midnight = new TZDate(kst.getFullYear(), kst.getMonth(), kst.getDate(), 0, 0, 0, 'Asia/Seoul');
      expect(kstInstant(date, minutes).getTime(), iso).toBe(midnight.getTime() + minutes * 60_000);
    }
  });
});
