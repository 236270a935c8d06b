/**
 * Admins' restarts of a route's learning (docs/predictions.md §Following a changed timetable): a
 * route's timetable changed on a date the detection has not seen (or not yet), so its predictions
 * learn from its days since then only. Stored with the audit entry in one transaction.
 */
import { desc, eq } from 'drizzle-orm';
import type { FeedSourceName } from '../../../contract/bus';
import { recordAudit } from '../../admin/audit';
import type { Db } from '../../db/client';
import { timetableRestarts } from '../../db/schema';

/** A route's latest restart, as the admin feed page lists it. */
export type StoredRestart = Restart & { actor: string; at: string };

/** A restart: the route, and the service date ("yyyy-MM-dd", KST) its learning restarts at. */
export type Restart = { routeNo: string; since: string };

/** Stores `restart` of the feed `source` by `actor` at `now`, audited ('timetable-restart'). @throws what the database throws. */
export async function saveTimetableRestart(
  db: Db,
  source: FeedSourceName,
  restart: Restart,
  actor: string,
  now: Date,
): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.insert(timetableRestarts).values({ source, ...restart, actor, createdAt: now });
    const target = `route:${restart.routeNo}`;
    await recordAudit(tx, { actor, action: 'timetable-restart', target, after: { since: restart.since } }, now);
  });
}

/** The latest restart of each route of the feed `source`, in no particular order. */
export async function latestTimetableRestarts(db: Db, source: FeedSourceName): Promise<StoredRestart[]> {
  const rows = await db
    .select()
    .from(timetableRestarts)
    .where(eq(timetableRestarts.source, source))
    .orderBy(desc(timetableRestarts.id));
  const latest = new Map<string, StoredRestart>();
  for (const row of rows) {
    if (!latest.has(row.routeNo)) {
      latest.set(row.routeNo, {
        routeNo: row.routeNo,
        since: row.since,
        actor: row.actor,
        at: row.createdAt.toISOString(),
      });
    }
  }
  return [...latest.values()];
}
