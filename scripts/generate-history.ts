/**
 * `npm run history:generate -- --seed N [--model standard|corridor] [--last-date yyyy-MM-dd] [--days 70] [--no-arrivals] [--out FILE]`:
 * writes a synthetic departure history as the backtest's CSV, to FILE or standard output, and
 * prints what it holds on standard error. --model standard (scripts/history-generator.ts): the
 * timetable change, the disrupted evening, the holidays; --model corridor
 * (scripts/corridor-generator.ts): the timetable change, each route's travel from the crossroads,
 * layover and recovery ρ, the holidays. Without arrivedAt (--no-arrivals) the backtest's
 * 'estimate' is its history part alone.
 */
import { writeFileSync } from 'node:fs';
import { z } from 'zod';
import { parseCli } from './cli';
import { generateCorridorHistory, type CorridorScenario } from './corridor-generator';
import {
  generateHistory,
  historyCsv,
  type GeneratedRow,
  type GeneratedScenario,
  type GeneratorOptions,
} from './history-generator';

const values = parseCli(
  'Usage: npm run history:generate -- --seed N [--model standard|corridor] [--last-date yyyy-MM-dd] [--days 70] [--no-arrivals] [--out FILE]',
  {
    seed: { type: 'string' },
    model: { type: 'string', default: 'standard' },
    'last-date': { type: 'string', default: '2026-10-31' },
    days: { type: 'string', default: '70' },
    'no-arrivals': { type: 'boolean', default: false },
    out: { type: 'string' },
  },
);
const OptionsSchema = z.object({
  seed: z.coerce.number({ message: '--seed must be a whole number' }).int().min(0),
  model: z.enum(['standard', 'corridor'], { message: '--model must be standard or corridor' }),
  lastDate: z.string().regex(/^\d{4}-\d{2}-\d{2}$/, '--last-date must be yyyy-MM-dd'),
  days: z.coerce.number().int().min(1, '--days must be 1 to 730').max(730, '--days must be 1 to 730'),
});
const parsed = OptionsSchema.safeParse({
  seed: values.seed,
  model: values.model,
  lastDate: values['last-date'],
  days: values.days,
});
if (!parsed.success) {
  console.error(parsed.error.issues.map((issue) => issue.message).join('\n'));
  process.exit(2);
}
const hhmm = (minute: number) =>
  `${String(Math.floor(minute / 60)).padStart(2, '0')}:${String(minute % 60).padStart(2, '0')}`;

/** The model's rows and scenario, and the lines that say what else than the change and the holidays it holds. */
function generated(
  model: 'standard' | 'corridor',
  options: GeneratorOptions,
): { rows: GeneratedRow[]; scenario: GeneratedScenario | CorridorScenario; held: string[] } {
  if (model === 'corridor') {
    const { rows, scenario } = generateCorridorHistory(options);
    const held = Object.entries(scenario.routes).map(
      ([routeNo, route]) =>
        `route ${routeNo}: travel ${route.travelBaseMin.toFixed(1)} min × congestion × e^(${route.travelSigma.toFixed(2)}·N), ` +
        `layover ${route.layoverMin.toFixed(1)} min, recovery ρ ${route.recovery.toFixed(2)}, ` +
        `departure σ ${Math.round(route.departureSigmaSec)} s, skips ${(route.skipRate * 100).toFixed(1)} %, ` +
        `lateness drift ${route.driftPerWeekMin.toFixed(2)} min/week`,
    );
    return { rows, scenario, held };
  }
  const { rows, scenario } = generateHistory(options);
  const { disruptedWeekday, disruptedFromMin, disruptedToMin } = scenario;
  return {
    rows,
    scenario,
    held: [`disrupted evening: ${disruptedWeekday} ${hhmm(disruptedFromMin)}–${hhmm(disruptedToMin)}`],
  };
}

const { model, ...options } = parsed.data;
const { rows, scenario, held } = generated(model, options);
const csv = historyCsv(rows, !values['no-arrivals']);
if (values.out) writeFileSync(values.out, csv);
else process.stdout.write(csv);
console.error(
  [
    `${rows.length} departures, seed ${options.seed}, ${options.days} days to ${options.lastDate}, ${model} model`,
    `timetable change from ${scenario.changeDate} on routes ${scenario.changedRoutes.join(', ')}`,
    ...held,
    `holidays: ${scenario.holidays.join('; ') || 'none'}`,
  ].join('\n'),
);
