/**
 * `npm run history:generate -- --seed N [--model standard|corridor|changes] [--changes 1150=more,…] [--last-date yyyy-MM-dd] [--days 70] [--no-arrivals] [--out FILE]`:
 * writes a synthetic departure history as the backtest's CSV, to FILE or standard output, and
 * prints what it holds on standard error. --model standard (scripts/history-generator.ts): the
 * timetable change, the disrupted evening, the holidays; --model corridor
 * (scripts/corridor-generator.ts): the timetable change, each route's travel from the crossroads,
 * layover and recovery ρ, the holidays; --model changes (scripts/change-generator.ts): each route
 * named in --changes (routeNo=kind, CHANGE_KINDS) changes 9 days before --last-date, so the last
 * 7 days (`npm run backtest -- --days 7`) are days 3–9 after it. Without arrivedAt (--no-arrivals) the backtest's
 * 'estimate' is its history part alone.
 */
import { writeFileSync } from 'node:fs';
import { z } from 'zod';
import { parseCli } from './cli';
import { generateCorridorHistory, type CorridorScenario } from './corridor-generator';
import { CHANGE_KINDS, generateChangeHistory, type ChangeKind } from './change-generator';
import { ROUTE_NOS } from '../contract/transit';
import { addServiceDays } from '../api/time';
import { generateHistory, historyCsv, type GeneratedRow, type GeneratedScenario } from './history-generator';

const values = parseCli(
  'Usage: npm run history:generate -- --seed N [--model standard|corridor|changes] [--changes 1150=more,…] [--last-date yyyy-MM-dd] [--days 70] [--no-arrivals] [--out FILE]',
  {
    seed: { type: 'string' },
    model: { type: 'string', default: 'standard' },
    changes: { type: 'string', default: '' },
    'last-date': { type: 'string', default: '2026-10-31' },
    days: { type: 'string', default: '70' },
    'no-arrivals': { type: 'boolean', default: false },
    out: { type: 'string' },
  },
);
const OptionsSchema = z.object({
  seed: z.coerce.number({ message: '--seed must be a whole number' }).int().min(0),
  model: z.enum(['standard', 'corridor', 'changes'], { message: '--model must be standard, corridor or changes' }),
  changes: z.string().transform((list, context) => {
    const pairs = list ? list.split(',').map((pair) => pair.split('=')) : [];
    const valid = pairs.every(
      ([routeNo, kind, ...rest]) =>
        rest.length === 0 &&
        (ROUTE_NOS as readonly string[]).includes(routeNo) &&
        (CHANGE_KINDS as readonly string[]).includes(kind),
    );
    if (valid) return pairs as [string, ChangeKind][];
    context.addIssue({
      code: 'custom',
      message: `--changes must be routeNo=kind pairs, comma-separated: routes ${ROUTE_NOS.join(', ')}; kinds ${CHANGE_KINDS.join(', ')}`,
    });
    return z.NEVER;
  }),
  lastDate: z.string().regex(/^\d{4}-\d{2}-\d{2}$/, '--last-date must be yyyy-MM-dd'),
  days: z.coerce.number().int().min(1, '--days must be 1 to 730').max(730, '--days must be 1 to 730'),
});
const parsed = OptionsSchema.safeParse({
  seed: values.seed,
  model: values.model,
  changes: values.changes,
  lastDate: values['last-date'],
  days: values.days,
});
if (!parsed.success) {
  console.error(parsed.error.issues.map((issue) => issue.message).join('\n'));
  process.exit(2);
}
const hhmm = (minute: number) =>
  `${String(Math.floor(minute / 60)).padStart(2, '0')}:${String(minute % 60).padStart(2, '0')}`;

/** The model's rows and the lines that say what they hold. */
function generated({ model, changes, ...options }: z.infer<typeof OptionsSchema>): {
  rows: GeneratedRow[];
  lines: string[];
} {
  if (model === 'changes') {
    const changeDate = addServiceDays(options.lastDate, -9);
    const rows = generateChangeHistory({ ...options, changeDate, changes: Object.fromEntries(changes) });
    const listed = changes.map(([routeNo, kind]) => `${routeNo} ${kind}`).join(', ') || 'none';
    return { rows, lines: [`timetable changes from ${changeDate}: ${listed}`] };
  }
  const described = (scenario: GeneratedScenario | CorridorScenario, held: string[]) => [
    `timetable change from ${scenario.changeDate} on routes ${scenario.changedRoutes.join(', ')}`,
    ...held,
    `holidays: ${scenario.holidays.join('; ') || 'none'}`,
  ];
  if (model === 'corridor') {
    const { rows, scenario } = generateCorridorHistory(options);
    const held = Object.entries(scenario.routes).map(
      ([routeNo, route]) =>
        `route ${routeNo}: travel ${route.travelBaseMin.toFixed(1)} min × congestion × e^(${route.travelSigma.toFixed(2)}·N), ` +
        `layover ${route.layoverMin.toFixed(1)} min, recovery ρ ${route.recovery.toFixed(2)}, ` +
        `departure σ ${Math.round(route.departureSigmaSec)} s, skips ${(route.skipRate * 100).toFixed(1)} %, ` +
        `lateness drift ${route.driftPerWeekMin.toFixed(2)} min/week`,
    );
    return { rows, lines: described(scenario, held) };
  }
  const { rows, scenario } = generateHistory(options);
  const { disruptedWeekday, disruptedFromMin, disruptedToMin } = scenario;
  return {
    rows,
    lines: described(scenario, [
      `disrupted evening: ${disruptedWeekday} ${hhmm(disruptedFromMin)}–${hhmm(disruptedToMin)}`,
    ]),
  };
}

const { rows, lines } = generated(parsed.data);
const csv = historyCsv(rows, !values['no-arrivals']);
if (values.out) writeFileSync(values.out, csv);
else process.stdout.write(csv);
const { seed, days, lastDate, model } = parsed.data;
console.error(
  [`${rows.length} departures, seed ${seed}, ${days} days to ${lastDate}, ${model} model`, ...lines].join('\n'),
);
