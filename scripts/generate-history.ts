/**
 * `npm run history:generate -- --seed N [--last-date yyyy-MM-dd] [--days 70] [--no-arrivals] [--out FILE]`:
 * writes a synthetic departure history (scripts/history-generator.ts) as the backtest's CSV, to
 * FILE or standard output, and prints what it holds (the timetable change, the disrupted evening,
 * the holidays) on standard error. Without arrivedAt (--no-arrivals) the backtest's 'estimate' is
 * its history part alone.
 */
import { writeFileSync } from 'node:fs';
import { z } from 'zod';
import { parseCli } from './cli';
import { generateHistory, historyCsv } from './history-generator';

const values = parseCli(
  'Usage: npm run history:generate -- --seed N [--last-date yyyy-MM-dd] [--days 70] [--no-arrivals] [--out FILE]',
  {
    seed: { type: 'string' },
    'last-date': { type: 'string', default: '2026-10-31' },
    days: { type: 'string', default: '70' },
    'no-arrivals': { type: 'boolean', default: false },
    out: { type: 'string' },
  },
);
const OptionsSchema = z.object({
  seed: z.coerce.number({ message: '--seed must be a whole number' }).int().min(0),
  lastDate: z.string().regex(/^\d{4}-\d{2}-\d{2}$/, '--last-date must be yyyy-MM-dd'),
  days: z.coerce.number().int().min(1, '--days must be 1 to 730').max(730, '--days must be 1 to 730'),
});
const parsed = OptionsSchema.safeParse({ seed: values.seed, lastDate: values['last-date'], days: values.days });
if (!parsed.success) {
  console.error(parsed.error.issues.map((issue) => issue.message).join('\n'));
  process.exit(2);
}
const { rows, scenario } = generateHistory(parsed.data);
const csv = historyCsv(rows, !values['no-arrivals']);
if (values.out) writeFileSync(values.out, csv);
else process.stdout.write(csv);
const hhmm = (minute: number) =>
  `${String(Math.floor(minute / 60)).padStart(2, '0')}:${String(minute % 60).padStart(2, '0')}`;
console.error(
  [
    `${rows.length} departures, seed ${parsed.data.seed}, ${parsed.data.days} days to ${parsed.data.lastDate}`,
    `timetable change from ${scenario.changeDate} on routes ${scenario.changedRoutes.join(', ')}`,
    `disrupted evening: ${scenario.disruptedWeekday} ${hhmm(scenario.disruptedFromMin)}–${hhmm(scenario.disruptedToMin)}`,
    `holidays: ${scenario.holidays.join('; ') || 'none'}`,
  ].join('\n'),
);
