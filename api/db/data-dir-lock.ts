/**
 * One owner per embedded data directory: PGlite takes no lock of its own, so two processes on one
 * DATA_DIR would both poll GBIS and could corrupt the files. The owner holds an OS-level lock
 * (proper-lockfile: an atomic mkdir of `owner.lock` whose mtime it refreshes every STALE_MS / 2) and
 * writes `owner.pid` beside it: its pid on the first line (a plain pid file), then where that pid
 * means something (`host=`, `boot=`, `pidns=`), so a second process is told who holds it.
 *
 * A crashed owner (SIGKILL, OOM) leaves its lock behind. proper-lockfile frees it only once stale,
 * 10–15 s later, and a supervisor that restarts at once gives up before that (systemd's defaults:
 * 100 ms between starts, at most 5 starts in 10 s; docs/deploy.md §Running under systemd). So a
 * lock whose owner ran on this machine, in our pid namespace, and is no longer running (a zombie its
 * parent has not reaped yet included) is taken over at once. Every other case waits for the staleness as before: a live owner, a frozen one (SIGSTOP:
 * alive, but no longer refreshing), an owner on another host sharing the disk or in another pid
 * namespace (another container: its pids are not ours to look up), an owner file of an older
 * version, and a dead owner whose pid an unrelated process reuses (conservative: refused until stale).
 *
 * Race: every acquisition (lock, owner check, takeover, owner file written) runs under a second,
 * short-lived lock (`owner.claim`), so two processes started at once after a crash cannot both judge
 * the same dead owner and each remove the other's fresh lock: the first takes it over, the second
 * then reads the first's pid and is refused. The re-lock after removing a dead owner's lock is still
 * proper-lockfile's mkdir, so its atomicity decides even against a process that skips the claim.
 */
import { readFileSync, readlinkSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import lockfile from 'proper-lockfile';
import { StartFailure } from '../../lib/lifecycle';

/** A crashed owner's lock is taken over after this long without a refresh (proper-lockfile's `stale`), in ms. */
const STALE_MS = 10_000;

/**
 * How long a start waits for another process's claim (milliseconds apart, ~1.2 s in all): a claim
 * lasts a few milliseconds, so one still held after this is another start's that crashed mid-claim,
 * which only its staleness frees.
 */
const CLAIM_RETRIES = { retries: 10, factor: 1.5, minTimeout: 20, maxTimeout: 200 };

/** Thrown when another process holds the data directory: a StartFailure, its message the one line the entry logs. */
export class DataDirBusyError extends StartFailure {
  constructor(
    readonly dataDir: string,
    readonly holderPid: number | null,
    /** The holder's host when it is not ours (a lock on a shared disk). */
    readonly holderHost: string | null = null,
  ) {
    const holder = holderPid ? ` (pid ${holderPid}${holderHost ? ` on ${holderHost}` : ''})` : '';
    super(
      `DATA_DIR ${dataDir} is in use by another process${holder}. ` +
        'The embedded database belongs to one process: stop that one first, or use another DATA_DIR.',
    );
    this.name = 'DataDirBusyError';
  }
}

/** Where a pid means something: the host, its current boot and the pid namespace (Linux; null elsewhere). */
type Place = { host: string; boot: string | null; pidns: string | null };
type Owner = { pid: number; place: Place | null };

/** The directories this process holds (realpath): our own pid in an owner file is then no former incarnation. */
const heldHere = new Set<string>();

/**
 * Takes the lock on `dataDir` (an existing directory) for this process. A lock left by a process
 * of this machine and pid namespace that is no longer running is taken over at once, with a `[db]`
 * line naming its pid; any other holder keeps it until its lock is stale (10 s without a refresh).
 * @param onLost called when the lock is lost while held (another process took it over after it went
 *   stale: this process was frozen or its refreshes failed for 10 s); the caller must stop writing.
 * @returns the release function (idempotent).
 * @throws DataDirBusyError when another process holds it (a live one, one on another host or in
 *   another pid namespace whose lock is not stale yet, or another start claiming it right now);
 *   the file system's error when the lock cannot be made (EACCES, EROFS).
 */
export async function lockDataDir(dataDir: string, onLost: (error: Error) => void): Promise<() => Promise<void>> {
  const key = realpathSync(dataDir);
  const ownerFile = join(dataDir, 'owner.pid');
  const busy = () => {
    const owner = readOwner(ownerFile);
    const host = owner?.place && owner.place.host !== hostname() ? owner.place.host : null;
    return new DataDirBusyError(dataDir, owner?.pid ?? null, host);
  };

  const claimFile = join(dataDir, 'owner.claim');
  const releaseClaim = await lockfile
    .lock(claimFile, {
      realpath: false,
      lockfilePath: claimFile,
      stale: STALE_MS,
      retries: CLAIM_RETRIES,
      // Held for milliseconds. A process frozen mid-claim past STALE_MS loses it, and a takeover by
      // another start then shows as owner.lock's own compromise (onLost below).
      onCompromised: () => undefined,
    })
    .catch((error: unknown) => {
      throw (error as NodeJS.ErrnoException).code === 'ELOCKED' ? busy() : error;
    });

  let compromised = false;
  let release: () => Promise<void>;
  try {
    const take = () =>
      lockfile.lock(dataDir, {
        lockfilePath: join(dataDir, 'owner.lock'),
        stale: STALE_MS,
        onCompromised: (error) => {
          compromised = true;
          heldHere.delete(key);
          onLost(error);
        },
      });
    try {
      release = await take();
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ELOCKED') throw error;
      const owner = readOwner(ownerFile);
      if (!owner || !hasExited(owner, key)) throw busy();
      console.warn(
        `[db] DATA_DIR ${dataDir} was held by pid ${owner.pid}, which is no longer running: taking it over.`,
      );
      rmSync(join(dataDir, 'owner.lock'), { recursive: true, force: true });
      release = await take().catch((error: unknown) => {
        throw (error as NodeJS.ErrnoException).code === 'ELOCKED' ? busy() : error;
      });
    }
    try {
      writeFileSync(ownerFile, formatOwner({ pid: process.pid, place: currentPlace() }));
    } catch (error) {
      await release().catch(() => undefined);
      throw error;
    }
    heldHere.add(key);
  } finally {
    await releaseClaim().catch(() => undefined);
  }

  let released = false;
  return async () => {
    if (released || compromised) return; // compromised: the lock and the owner file are another's now
    released = true;
    heldHere.delete(key);
    // The owner file goes first (once the lock is free, the next owner's file must stay), and only
    // while it names us: a takeover after staleness may not have reached onLost yet.
    if (readOwner(ownerFile)?.pid === process.pid) rmSync(ownerFile, { force: true });
    try {
      await release();
    } catch (error) {
      // ERELEASED: the lock was lost meanwhile (onLost ran).
      if ((error as NodeJS.ErrnoException).code === 'ERELEASED') return;
      throw error;
    }
  };
}

/**
 * Whether the owner's process is known to be gone: it ran here (same host, boot and pid namespace)
 * and its pid is not running or is a zombie (isZombie), or is our own pid while this process does
 * not hold the directory (a previous incarnation: a container's pid 1 restarted). A live pid (EPERM included: another user's)
 * is taken as the owner still running, even when reused by an unrelated process.
 */
function hasExited(owner: Owner, key: string): boolean {
  const here = currentPlace();
  const place = owner.place;
  if (!place || place.host !== here.host || place.boot !== here.boot || place.pidns !== here.pidns) return false;
  if (owner.pid === process.pid) return !heldHere.has(key);
  return !isRunning(owner.pid) || isZombie(owner.pid);
}

/** Whether a process `pid` exists (a zombie included); EPERM (another user's) counts as existing. */
function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code !== 'ESRCH';
  }
}

/**
 * Whether `pid` has exited but is not yet reaped by its parent (Linux /proc/PID/stat state Z, or X
 * while being reaped): kill(pid, 0) still finds it, and a supervisor restarting at once after a
 * SIGKILL can start before it has waited for the old process. A zombie runs no code, and its pid
 * cannot be reused before it is reaped, so it holds nothing. Without /proc, only a pid gone counts.
 */
function isZombie(pid: number): boolean {
  let stat: string;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return !isRunning(pid); // reaped meanwhile; or no /proc here, and then only kill() can tell
  }
  // "PID (COMM) STATE …": COMM may hold spaces and parentheses, so the state follows the last ')'.
  const state = stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
  return state === 'Z' || state === 'X';
}

function currentPlace(): Place {
  return {
    host: hostname(),
    boot: readOrNull(() => readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim()),
    pidns: readOrNull(() => readlinkSync('/proc/self/ns/pid')),
  };
}

function readOrNull(read: () => string): string | null {
  try {
    return read() || null;
  } catch {
    return null;
  }
}

function formatOwner({ pid, place }: Owner): string {
  const lines = [String(pid)];
  if (place) lines.push(`host=${place.host}`, `boot=${place.boot ?? ''}`, `pidns=${place.pidns ?? ''}`);
  return `${lines.join('\n')}\n`;
}

/** The owner file's pid and place; place null for a file of an older version (the pid alone). */
function readOwner(ownerFile: string): Owner | null {
  let text: string;
  try {
    text = readFileSync(ownerFile, 'utf8');
  } catch {
    return null;
  }
  const [first, ...rest] = text.split('\n');
  const pid = Number(first);
  if (!Number.isInteger(pid) || pid <= 0) return null;
  const fields = new Map(
    rest
      .filter((line) => line.includes('='))
      .map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)]),
  );
  const host = fields.get('host');
  if (!host) return { pid, place: null };
  return { pid, place: { host, boot: fields.get('boot') || null, pidns: fields.get('pidns') || null } };
}
