/**
 * The backtest's CSV files: the history it reads (`--history FILE`, also the history generator's
 * output) and the day plans it writes (`--predictions-out FILE`). Formats: docs/predictions.md
 * §Measuring it.
 */
import { parse } from 'csv-parse/sync';
import { z } from 'zod';
import { KstDateTimeSchema } from '../contract/bus';
import type { DayPlan, ObservedDeparture } from '../api/bus/predictions/day-plan';
import { serviceClock } from '../api/time';
import { formatKstIso } from '../contract/kst';

const HistoryRowSchema = z.object({
  routeNo: z.string().min(1),
  departedAt: KstDateTimeSchema,
  arrivedAt: KstDateTimeSchema.optional().or(z.literal('').transform(() => undefined)),
});

/**
 * Reads a history CSV: a header row, then one row per observed departure with the columns
 * routeNo, departedAt (ISO 8601 with offset) and optionally arrivedAt (when the run passed the
 * campus crossroads, ISO with offset, may be empty). serviceDate is derived with serviceClock.
 * @throws Error naming the line of the first bad row, or csv-parse's error for malformed CSV.
 */
export function parseHistoryCsv(text: string): ObservedDeparture[] {
  const rows: Record<string, string>[] = parse(text, { columns: true, skip_empty_lines: true, trim: true });
  return rows.map((row, index) => {
    const parsed = HistoryRowSchema.safeParse(row);
    if (!parsed.success) {
      const problems = parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
      throw new Error(`history CSV line ${index + 2}: ${problems.join('; ')}`);
    }
    const departedAt = new Date(parsed.data.departedAt);
    return {
      routeNo: parsed.data.routeNo,
      serviceDate: serviceClock(departedAt).serviceDate,
      departedAt,
      arrivedAt: parsed.data.arrivedAt ? new Date(parsed.data.arrivedAt) : null,
    };
  });
}

/**
 * The day plans' history part (`npm run backtest -- --predictions-out FILE`) as CSV: a header
 * `routeNo,serviceDate,predictedAt,lowerAt,upperAt`, then one row per predicted departure
 * (RouteDayPlan estimate, before live evidence: what 'history' is scored on), by date, route and
 * time. predictedAt is the estimate's point (Estimate.at), lowerAt and upperAt its 80 % range (the
 * 10th and 90th percentiles of its spread), both empty for an estimate that states none (a
 * timetable estimate). Times in KST ISO 8601 with offset (formatKstIso), like the history CSV.
 */
export function predictionsCsv(plans: readonly DayPlan[]): string {
  const iso = (at: Date | undefined) => (at ? formatKstIso(at) : '');
  const rows = plans.flatMap(({ serviceDate, routes }) =>
    routes.flatMap(({ routeNo, estimate }) =>
      estimate.map(
        ({ at, lowerAt, upperAt }) => `${routeNo},${serviceDate},${formatKstIso(at)},${iso(lowerAt)},${iso(upperAt)}`,
      ),
    ),
  );
  return ['routeNo,serviceDate,predictedAt,lowerAt,upperAt', ...rows].join('\n') + '\n';
}
