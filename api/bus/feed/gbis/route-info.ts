/**
 * The daily re-read of each route's GBIS route info (docs/gbis.md §Route info): a timetable GBIS
 * now states otherwise (first or last bus, headways) is evidence of a change (docs/predictions.md
 * §Following a changed timetable). The lease holder reads it once a KST day, spending one call of
 * the 'routes' dataset per route with a routeId, reserved before the first as discovery reserves
 * its own. A changed timetable is saved into the GBIS setup (the timetable estimates and the 막차
 * marks follow it) and, from the second read on, restarts the route's learning at that service
 * date, both audited as ROUTE_INFO_ACTOR.
 */
import { eq } from 'drizzle-orm';
import type { Db } from '../../../db/client';
import { settings } from '../../../db/schema';
import type { Logger } from '../../../logger';
import { serviceClock } from '../../../time';
import { formatKstDate } from '../../../../contract/kst';
import { saveTimetableRestart } from '../../predictions/restarts';
import { reserveDiscoveryCalls } from '../store';
import { locatedRoutes, type TransitIds } from '../transit-config';
import { readRouteTimetable, type DiscoveryClient } from './discover';
import { configOf, saveGbisConfig } from './setup-store';

/** Who the audit log names for what the route info changed. */
export const ROUTE_INFO_ACTOR = 'GBIS 노선 정보';
/** The settings key of the last KST date the route info was read. */
const CHECKED_KEY = 'route-info-checked';

/** What a check did: nothing (read today already, or no route to read), no budget, or read, with the routes it found changed. */
export type RouteInfoCheck =
  { outcome: 'skipped' } | { outcome: 'no-budget' } | { outcome: 'read'; changed: string[]; failed: string[] };

/**
 * Reads the route info of every route of `ids` with a routeId, once per KST date of `now`; a route
 * whose timetable differs from the one in use is saved and restarted (see above). A route whose
 * read fails is logged and read again tomorrow (its call counts: it may have reached GBIS).
 * @throws what the database throws.
 */
export async function checkRouteInfo(deps: {
  db: Db;
  gbis: DiscoveryClient;
  ids: TransitIds;
  now: Date;
  dailyQuota: number;
  logger: Logger;
}): Promise<RouteInfoCheck> {
  const { db, gbis, ids, now, dailyQuota, logger } = deps;
  const day = formatKstDate(now);
  const [checked] = await db.select().from(settings).where(eq(settings.key, CHECKED_KEY));
  const routes = locatedRoutes(ids);
  if (checked?.value === day || routes.length === 0) return { outcome: 'skipped' };
  if (!(await reserveDiscoveryCalls(db, day, { routes: routes.length, stations: 0 }, dailyQuota))) {
    return { outcome: 'no-budget' };
  }
  await db
    .insert(settings)
    .values({ key: CHECKED_KEY, value: day, updatedAt: now })
    .onConflictDoUpdate({ target: settings.key, set: { value: day, updatedAt: now } });
  const changed: string[] = [];
  const failed: string[] = [];
  let current = ids;
  // The first read ever sets the baseline: a setup made without discovery holds the estimates of
  // transit-config, which differ from what GBIS states without anything having changed.
  const baseline = checked === undefined;
  for (const route of routes) {
    const read = await readRouteTimetable(gbis, route).catch((error: unknown) => {
      logger.warn(`[route info] ${route.routeNo}: could not read GBIS route info (${(error as Error).message}).`);
      failed.push(route.routeNo);
      return null;
    });
    if (!read || JSON.stringify(read) === JSON.stringify(route.timetable)) continue;
    changed.push(route.routeNo);
    current = {
      ...current,
      routes: current.routes.map((r) => (r.routeNo === route.routeNo ? { ...r, timetable: read } : r)),
    };
    await saveGbisConfig(db, configOf(current), ROUTE_INFO_ACTOR, now);
    const since = serviceClock(now).serviceDate;
    if (!baseline) await saveTimetableRestart(db, 'gbis', { routeNo: route.routeNo, since }, ROUTE_INFO_ACTOR, now);
    logger.info(
      `[route info] ${route.routeNo}: GBIS states another timetable (${JSON.stringify(route.timetable)} → ` +
        `${JSON.stringify(read)}); saved${baseline ? ' (the first read)' : `, and its learning restarts at ${since}`}.`,
    );
  }
  return { outcome: 'read', changed, failed };
}
