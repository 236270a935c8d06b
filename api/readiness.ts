/**
 * What /api/readyz checks besides the feed (docs/deploy.md §Health and readiness): that the
 * database takes a write, and that DATA_DIR's disk has room left. A full disk fails the embedded
 * database's writes and the local store's uploads while reads still answer, so a read probe alone
 * (SELECT 1) kept such an instance in the balancer.
 */
import { statfs } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import type { Db } from './db/client';
import { settings } from './db/schema';

/** 1 MB = 2^20 bytes: the unit of IMAGE_STORAGE_MAX_MB and READY_MIN_FREE_BYTES. */
export const MB = 1024 * 1024;

/**
 * Below this much free space on DATA_DIR's disk (256 MB, in bytes) the instance is not ready and
 * refuses new uploads: room for the database to go on writing (PGlite's WAL grows in 16 MB
 * segments and a checkpoint may need several) and for the uploads already granted to land, while
 * the balancer drains the instance and an operator frees space.
 */
export const READY_MIN_FREE_BYTES = 256 * MB;

/** The settings row the write probe upserts (its value is the probe's instant, read by nobody). */
const WRITE_PROBE_KEY = 'readiness-probe';

/**
 * The bytes this process may still write on the disk that holds `path` (statfs: available blocks ×
 * block size). A path not made yet (the local store's folder before its first upload) is measured
 * at its nearest existing parent.
 * @throws what statfs throws, other than ENOENT.
 */
export async function freeDiskBytes(path: string): Promise<number> {
  let at = resolve(path);
  for (;;) {
    try {
      const stats = await statfs(at);
      return stats.bavail * stats.bsize;
    } catch (error) {
      const parent = dirname(at);
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT' || parent === at) throw error;
      at = parent;
    }
  }
}

/**
 * Whether the database took a write within `timeoutMs` (ms): one upsert of one settings row, as
 * cheap a write as there is, since readiness is polled every few seconds. Never throws.
 */
export function databaseTakesWrite(db: Db, now: Date, timeoutMs: number): Promise<boolean> {
  const write = db
    .insert(settings)
    .values({ key: WRITE_PROBE_KEY, value: now.toISOString(), updatedAt: now })
    .onConflictDoUpdate({ target: settings.key, set: { value: now.toISOString(), updatedAt: now } })
    .then(
      () => true,
      () => false,
    );
  return within(write, timeoutMs, false);
}

/**
 * The state of the disk whose free space `readFree` reads (bytes): 'low' under
 * READY_MIN_FREE_BYTES, 'unreadable' when the read fails or takes over `timeoutMs` (ms), with a
 * line for the log saying which. Never throws.
 */
export async function diskState(
  readFree: () => Promise<number>,
  timeoutMs: number,
): Promise<{ disk: 'ok' | 'low' | 'unreadable'; detail?: string }> {
  const free = await within(
    readFree().catch((error: unknown) => (error instanceof Error ? error : new Error(String(error)))),
    timeoutMs,
    new Error(`no answer in ${timeoutMs} ms`),
  );
  if (free instanceof Error) return { disk: 'unreadable', detail: `DATA_DIR's free space unreadable: ${free.message}` };
  if (free < READY_MIN_FREE_BYTES) {
    return { disk: 'low', detail: `DATA_DIR's disk has ${free} bytes free, under ${READY_MIN_FREE_BYTES}` };
  }
  return { disk: 'ok' };
}

/** What `promise` resolves to, or `fallback` once `timeoutMs` (ms) have passed first. */
export async function within<T>(promise: Promise<T>, timeoutMs: number, fallback: T): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<T>((resolve) => (timer = setTimeout(() => resolve(fallback), timeoutMs)));
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}
