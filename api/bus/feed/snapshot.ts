/**
 * A bus feed source, what one poll costs and why one failed. What a poll saw is the snapshot of
 * contract/feed-snapshot.ts, stored as is in feed_states (api/db/schema/bus.ts).
 */
import type { FeedSourceName } from '../../../contract/bus';
import type { Arrival, FeedSnapshot, VehiclePosition } from '../../../contract/feed-snapshot';
import type { RouteConfig } from './transit-config';

/** GBIS calls per quota dataset (the portal counts arrival and location calls apart: docs/gbis.md §Quota). */
export type DatasetCalls = { arrivals: number; locations: number };

/** What one poll reads: the arrival list at the campus crossroads or not, and the location lists of `routes`. */
export type PollRequest = { arrivals: boolean; routes: readonly string[] };

/** What one poll read: `arrivals` null when the request skipped them, `vehicles` of the requested routes only. */
export type FeedReading = {
  arrivals: Arrival[] | null;
  vehicles: VehiclePosition[];
  /** As FeedSnapshot.terminusStationId: the terminus id the source polled with. */
  terminusStationId?: string;
};

/** The parts of a whole-feed snapshot that `request` asks for (a source that reads everything at once: the demo simulator). */
export function readingOf(snapshot: FeedSnapshot, request: PollRequest): FeedReading {
  return {
    arrivals: request.arrivals ? snapshot.arrivals : null,
    vehicles: snapshot.vehicles.filter((vehicle) => request.routes.includes(vehicle.routeNo)),
    terminusStationId: snapshot.terminusStationId,
  };
}

/** The calls a request spends: one arrival call, one location call per route. */
export function callsOf(request: PollRequest): DatasetCalls {
  return { arrivals: request.arrivals ? 1 : 0, locations: request.routes.length };
}

/** A bus feed: polled by the poller only, never per user request. */
export interface FeedSource {
  readonly name: FeedSourceName;
  /** True when each call counts against the daily quota (GBIS); false when polling is free (the demo simulator). */
  readonly metered: boolean;
  /** The routes whose location lists can be read (GBIS: those with a known routeId, as of the last `prepare`). */
  readonly locatedRoutes: readonly RouteConfig[];
  /**
   * Reads what the next poll needs (the GBIS source: its ids) before the poller reserves its calls;
   * absent when there is nothing to read.
   * @throws FeedError('config') when the source cannot poll yet (no call is reserved or made then).
   */
  prepare?(): Promise<void>;
  /**
   * Reads what `request` asks for as of `now` (location lists only for routeNos of `locatedRoutes`).
   * @throws FeedError on timeout, HTTP error, portal/GBIS error or an unreadable body.
   */
  poll(now: Date, request: PollRequest, signal: AbortSignal): Promise<FeedReading>;
}

/**
 * Why a poll failed. 'budget': our own daily quota (GBIS_DAILY_QUOTA) is spent, so no call was made.
 * 'database': our database failed, so the calls could not be reserved (none was made) or the
 * outcome could not be stored.
 */
export type FeedErrorKind = 'timeout' | 'http' | 'portal' | 'gbis' | 'body' | 'config' | 'budget' | 'database';

/** A failed poll; `kind` says why, `message` is for the log (never shown to users). */
export class FeedError extends Error {
  constructor(
    readonly kind: FeedErrorKind,
    message: string,
  ) {
    super(message);
    this.name = 'FeedError';
  }
}
