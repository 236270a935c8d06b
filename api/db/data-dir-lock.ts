/**
 * One owner per embedded data directory (ARCHITECTURE.md Security): PGlite takes no lock of its own,
 * so two processes on one DATA_DIR would both poll GBIS and could corrupt the files. The owner holds
 * an OS-level lock (proper-lockfile: an atomic mkdir whose mtime it refreshes; a crashed owner's lock
 * goes stale after STALE_MS) and writes its pid beside it, so a second process is told who holds it.
 */
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import lockfile from 'proper-lockfile';

/** A crashed owner's lock is taken over after this long without a refresh (proper-lockfile's `stale`). */
const STALE_MS = 10_000;

/** Thrown when another live process holds the data directory. */
export class DataDirBusyError extends Error {
  constructor(
    readonly dataDir: string,
    readonly holderPid: number | null,
  ) {
    super(
      `DATA_DIR ${dataDir} is in use by another process${holderPid ? ` (pid ${holderPid})` : ''}. ` +
        'The embedded database belongs to one process: stop that one first, or use another DATA_DIR.',
    );
    this.name = 'DataDirBusyError';
  }
}

/**
 * Takes the lock on `dataDir` (an existing directory) for this process.
 * @returns the release function (idempotent).
 * @throws DataDirBusyError when another live process holds it.
 */
export async function lockDataDir(dataDir: string, onLost: (error: Error) => void): Promise<() => Promise<void>> {
  const pidFile = join(dataDir, 'owner.pid');
  let release: () => Promise<void>;
  try {
    release = await lockfile.lock(dataDir, {
      lockfilePath: join(dataDir, 'owner.lock'),
      stale: STALE_MS,
      onCompromised: onLost,
    });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ELOCKED') throw error;
    throw new DataDirBusyError(dataDir, readPid(pidFile));
  }
  writeFileSync(pidFile, `${process.pid}\n`);
  let released = false;
  return async () => {
    if (released) return;
    released = true;
    try {
      await release();
    } catch (error) {
      // ERELEASED: the lock was already lost (onLost ran); the pid file is no longer ours.
      if ((error as NodeJS.ErrnoException).code === 'ERELEASED') return;
      throw error;
    }
    rmSync(pidFile, { force: true });
  };
}

function readPid(pidFile: string): number | null {
  try {
    const pid = Number.parseInt(readFileSync(pidFile, 'utf8'), 10);
    return Number.isInteger(pid) && pid > 0 ? pid : null;
  } catch {
    return null;
  }
}
