/**
 * The GBIS setup of the admin page /admin-only/gbis (docs/gbis.md §Setup page): the stored setup
 * (table gbis_config, one row), its audited save, and the TransitIds the feed works with, resolved
 * value by value: env overrides (GBIS_ARRIVAL_STATION_ID, GBIS_ROUTE_IDS) > the stored setup >
 * DEFAULT_TRANSIT_IDS of transit-config.ts. The GBIS source reads them before every poll
 * (transitIdsFromDatabase), so a save takes effect at the next poll without a restart.
 */
import { eq } from 'drizzle-orm';
import { GbisConfigSchema, type GbisConfig } from '../../../../contract/gbis';
import type { RouteNo } from '../../../../contract/transit';
import { recordAudit } from '../../../admin/audit';
import type { Db } from '../../../db/client';
import { gbisConfig } from '../../../db/schema';
import type { ApiEnv } from '../../../env';
import { DEFAULT_TRANSIT_IDS, stopsOf, transitIdsNow, type TransitIds, type TransitIdsNow } from '../transit-config';

/** The key of the one row: one setup per deployment. */
const CONFIG_KEY = 'current';

/** The env's overrides of the ids (api/env.ts): the campus crossroads' stationId, and routeIds by routeNo. */
export type GbisOverrides = { arrivalStationId: string | null; routeIds: Record<string, string> };

/** What the setup's api needs of the env: BUS_FEED, GBIS_SERVICE_KEY (null when unset), GBIS_BASE_URL and the overrides. */
export type GbisSetupOptions = {
  feed: ApiEnv['BUS_FEED'];
  serviceKey: string | null;
  /** Default GBIS_BASE_URL of http.ts. */
  baseUrl?: string;
  overrides: GbisOverrides;
};

/** The setup options of `env`. */
export function gbisSetupOf(env: ApiEnv): GbisSetupOptions {
  return {
    feed: env.BUS_FEED,
    serviceKey: env.GBIS_SERVICE_KEY ?? null,
    baseUrl: env.GBIS_BASE_URL,
    overrides: overridesOf(env),
  };
}

/** The overrides the env sets (none when neither variable is set). */
export function overridesOf(env: Pick<ApiEnv, 'GBIS_ARRIVAL_STATION_ID' | 'GBIS_ROUTE_IDS'>): GbisOverrides {
  return { arrivalStationId: env.GBIS_ARRIVAL_STATION_ID ?? null, routeIds: env.GBIS_ROUTE_IDS };
}

/** The stored setup with who saved it when ('cli' for `npm run gbis:discover -- --save`). */
type StoredGbisConfig = { value: GbisConfig; updatedAt: Date; updatedBy: string };

/**
 * The stored setup, or null before the first save. A row that no longer parses (saved by another
 * version) counts as none, so the feed falls back to the defaults instead of failing.
 */
export async function loadGbisConfig(db: Pick<Db, 'select'>): Promise<StoredGbisConfig | null> {
  const [row] = await db.select().from(gbisConfig).where(eq(gbisConfig.key, CONFIG_KEY));
  const value = GbisConfigSchema.safeParse(row?.value);
  return row && value.success ? { value: value.data, updatedAt: row.updatedAt, updatedBy: row.updatedBy } : null;
}

/**
 * Stores `value` (validated by the caller) as the setup, and audits it ('gbis-config', target
 * 'gbis-config', before and after) by `actor` in the same transaction.
 */
export async function saveGbisConfig(db: Db, value: GbisConfig, actor: string, now: Date): Promise<void> {
  await db.transaction(async (tx) => {
    const before = await loadGbisConfig(tx);
    await tx
      .insert(gbisConfig)
      .values({ key: CONFIG_KEY, value, updatedAt: now, updatedBy: actor })
      .onConflictDoUpdate({ target: gbisConfig.key, set: { value, updatedAt: now, updatedBy: actor } });
    const change = { before: before?.value ?? null, after: value };
    await recordAudit(tx, { actor, action: 'gbis-config', target: 'gbis-config', ...change }, now);
  });
}

/** The first id that is set ('' and null are not). */
const firstSet = (...ids: (string | null | undefined)[]): string => ids.find((id) => id) ?? '';

/**
 * The ids in use, each from the first source that sets it: `overrides`, then `stored`, then
 * DEFAULT_TRANSIT_IDS. A stored upStaOrder belongs to its stored routeId at its stored campus
 * crossroads: it is used only while both are the ones in use (else the default, null: both passes
 * shown). Timetables come from the stored setup, else the defaults.
 */
export function resolveTransitIds(stored: GbisConfig | null, overrides: GbisOverrides): TransitIds {
  const defaults = DEFAULT_TRANSIT_IDS;
  const crossroadsId = firstSet(overrides.arrivalStationId, stored?.upStationIds[0], defaults.upStops[0].stationId);
  const sameCrossroads = stored !== null && firstSet(stored.upStationIds[0]) === crossroadsId;
  return {
    routes: defaults.routes.map((route) => {
      const saved = stored?.routes[route.routeNo as RouteNo];
      const routeId = firstSet(overrides.routeIds[route.routeNo], saved?.routeId, route.routeId);
      const savedPass = saved && sameCrossroads && saved.routeId === routeId;
      return {
        ...route,
        routeId,
        upStaOrder: savedPass ? saved.upStaOrder : route.upStaOrder,
        timetable: saved?.timetable ?? route.timetable,
      };
    }),
    upStops: stopsOf(
      'up',
      defaults.upStops.map((stop, i) => (i === 0 ? crossroadsId : firstSet(stored?.upStationIds[i], stop.stationId))),
    ),
    downStops: stopsOf(
      'down',
      defaults.downStops.map((stop, i) => firstSet(stored?.downStationIds[i], stop.stationId)),
    ),
    terminus: { ...defaults.terminus, stationId: firstSet(stored?.terminusStationId, defaults.terminus.stationId) },
  };
}

/** `ids` in the stored shape (contract GbisConfig): what the page shows as in use. */
export function configOf(ids: TransitIds): GbisConfig {
  return {
    routes: Object.fromEntries(
      ids.routes.map(({ routeNo, routeId, upStaOrder, timetable }) => [routeNo, { routeId, upStaOrder, timetable }]),
    ) as GbisConfig['routes'],
    upStationIds: ids.upStops.map((stop) => stop.stationId),
    downStationIds: ids.downStops.map((stop) => stop.stationId),
    terminusStationId: ids.terminus.stationId,
  };
}

/**
 * The ids in use, held in memory (TransitIdsNow): each refresh reads the stored setup with
 * `overrides` over it. The GBIS source refreshes it before each poll, so a save takes effect at the
 * next poll.
 */
export function transitIdsFromDatabase(db: Db, overrides: GbisOverrides): TransitIdsNow {
  return transitIdsNow(() => loadTransitIds(db, overrides));
}

/** The ids in use, read now: the stored setup (gbis_config) with `overrides` over it (resolveTransitIds). */
export async function loadTransitIds(db: Db, overrides: GbisOverrides): Promise<TransitIds> {
  return resolveTransitIds((await loadGbisConfig(db))?.value ?? null, overrides);
}
