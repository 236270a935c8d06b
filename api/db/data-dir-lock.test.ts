import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { runEntry, type EntryProcess } from '../../tests/setup/process';
import { openDatabase } from './client';
import { DataDirBusyError, lockDataDir } from './data-dir-lock';

describe('lockDataDir', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'campus-bus-data-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const onLost = vi.fn();
  beforeEach(() => onLost.mockReset());
  afterEach(() => expect(onLost).not.toHaveBeenCalled());

  const holders: EntryProcess[] = [];
  /** A process holding `dir`'s lock, as a server does (tests/setup/hold-data-dir.ts). */
  const hold = (...args: string[]) => {
    const holder = runEntry('tests/setup/hold-data-dir.ts', {}, [dir, ...args]);
    holders.push(holder);
    return holder;
  };
  afterEach(() => {
    for (const holder of holders.splice(0)) if (holder.child.exitCode === null) holder.child.kill('SIGKILL');
  });
  const refusal = (promise: Promise<unknown>) =>
    promise.then(
      () => null,
      (error: unknown) => error,
    );
  /** A pid no process has: a child that has exited (and been reaped). */
  const deadPid = () => spawnSync(process.execPath, ['-e', '']).pid;

  it('refuses a second owner with DataDirBusyError naming the holder’s pid, and lets go on release', async () => {
    const release = await lockDataDir(dir, onLost);
    expect(readFileSync(join(dir, 'owner.pid'), 'utf8')).toMatch(new RegExp(`^${process.pid}\nhost=${hostname()}\n`));

    const second = await refusal(lockDataDir(dir, onLost));
    expect(second).toBeInstanceOf(DataDirBusyError);
    expect(second).toMatchObject({ name: 'DataDirBusyError', dataDir: dir, holderPid: process.pid });
    expect((second as Error).message).toContain(`DATA_DIR ${dir} is in use by another process (pid ${process.pid})`);

    await release();
    expect(existsSync(join(dir, 'owner.pid'))).toBe(false);
    await release(); // idempotent

    const again = await lockDataDir(dir, onLost);
    await again();
  });

  it('names no pid when the holder left none', async () => {
    const release = await lockDataDir(dir, onLost);
    rmSync(join(dir, 'owner.pid'));
    await expect(lockDataDir(dir, onLost)).rejects.toMatchObject({ holderPid: null });
    await release();
  });

  it('takes over at once the lock of a holder killed with SIGKILL, logging the dead pid', async () => {
    const holder = hold();
    await holder.waitFor(/^locked$/m);
    holder.child.kill('SIGKILL');
    await holder.exited();
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    try {
      // Its lock is fresh (refreshed every 5 s, stale after 10 s): before the takeover, refused here.
      const release = await lockDataDir(dir, onLost);
      expect(warn).toHaveBeenCalledWith(
        `[db] DATA_DIR ${dir} was held by pid ${holder.child.pid}, which is no longer running: taking it over.`,
      );
      expect(readFileSync(join(dir, 'owner.pid'), 'utf8')).toMatch(new RegExp(`^${process.pid}\n`));
      await release();
    } finally {
      warn.mockRestore();
    }
  }, 60_000);

  it('takes over at once the lock of a holder killed with SIGKILL that its parent has not reaped yet (a zombie)', async () => {
    // The holder's parent is a `sleep` that never waits for it: killed, it stays a zombie, as a
    // server does for the moment before its supervisor reaps it.
    const parent = spawn(
      'sh',
      [
        '-c',
        `"$0" --import tsx tests/setup/hold-data-dir.ts "$1" & echo "pid $!"; exec sleep 600`,
        process.execPath,
        dir,
      ],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    try {
      let output = '';
      parent.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
      await vi.waitFor(() => expect(output).toMatch(/^locked$/m), { timeout: 30_000, interval: 50 });
      const pid = Number(/^pid (\d+)$/m.exec(output)![1]);
      process.kill(pid, 'SIGKILL');
      await vi.waitFor(() => expect(processState(pid)).toBe('Z'));

      const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
      try {
        const release = await lockDataDir(dir, onLost);
        expect(warn).toHaveBeenCalledWith(
          `[db] DATA_DIR ${dir} was held by pid ${pid}, which is no longer running: taking it over.`,
        );
        expect(processState(pid)).toBe('Z'); // still unreaped: taken over from the zombie itself
        await release();
      } finally {
        warn.mockRestore();
      }
    } finally {
      parent.kill('SIGKILL'); // its zombie child goes to init, which reaps it
    }
  }, 60_000);

  it('takes over a lock left by a former process with our own pid (a container’s pid 1, restarted)', async () => {
    // What a previous incarnation with this pid, on this host, leaves when killed: the lock and its file.
    const previous = await lockDataDir(dir, onLost);
    const ownerFile = readFileSync(join(dir, 'owner.pid'), 'utf8');
    await previous();
    mkdirSync(join(dir, 'owner.lock'));
    writeFileSync(join(dir, 'owner.pid'), ownerFile);

    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    try {
      const release = await lockDataDir(dir, onLost);
      expect(warn).toHaveBeenCalledWith(expect.stringContaining(`was held by pid ${process.pid}, which is no longer`));
      await release();
    } finally {
      warn.mockRestore();
    }
  });

  it('refuses a live holder, naming its pid, and leaves it the lock', async () => {
    const holder = hold();
    await holder.waitFor(/^locked$/m);
    const refused = await refusal(lockDataDir(dir, onLost));
    expect(refused).toBeInstanceOf(DataDirBusyError);
    expect(refused).toMatchObject({ holderPid: holder.child.pid });
    expect(holder.child.exitCode).toBeNull();
    expect(holder.output()).not.toContain('lost');
  }, 60_000);

  it('refuses a frozen holder (SIGSTOP) while its lock is fresh, takes it once stale, and the holder resumed finds it lost', async () => {
    const holder = hold();
    await holder.waitFor(/^locked$/m);
    holder.child.kill('SIGSTOP');
    await vi.waitFor(() => expect(processState(holder.child.pid!)).toBe('T'));

    await expect(lockDataDir(dir, onLost)).rejects.toMatchObject({ holderPid: holder.child.pid });

    // 10 s without a refresh, as if frozen that long: proper-lockfile's staleness frees it.
    const past = Date.now() / 1000 - 11;
    utimesSync(join(dir, 'owner.lock'), past, past);
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    try {
      const release = await lockDataDir(dir, onLost);
      expect(warn).not.toHaveBeenCalled(); // not a dead owner's takeover
      holder.child.kill('SIGCONT');
      expect(await holder.exited()).toMatchObject({ code: 3 });
      expect(holder.output()).toMatch(/^lost /m);
      expect(readFileSync(join(dir, 'owner.pid'), 'utf8')).toMatch(new RegExp(`^${process.pid}\n`)); // still ours
      await release();
    } finally {
      warn.mockRestore();
    }
  }, 60_000);

  it.each([
    {
      holder: 'on another host sharing the disk',
      file: (pid: number) => `${pid}\nhost=campus-bus-2\nboot=x\npidns=pid:[1]\n`,
      message: (pid: number) => `(pid ${pid} on campus-bus-2)`,
    },
    {
      holder: 'in another pid namespace (another container)',
      // Our host and boot, another namespace.
      file: (pid: number, ours: string) => ours.replace(/^\d+/, String(pid)).replace(/^pidns=.*$/m, 'pidns=pid:[1]'),
      message: (pid: number) => `(pid ${pid})`,
    },
    {
      holder: 'of an older version (a pid alone)',
      file: (pid: number) => `${pid}\n`,
      message: (pid: number) => `(pid ${pid})`,
    },
  ])('refuses a fresh lock held $holder, even when that pid is not running here', async ({ file, message }) => {
    const ours = await lockDataDir(dir, onLost).then(async (release) => {
      const text = readFileSync(join(dir, 'owner.pid'), 'utf8');
      await release();
      return text;
    });
    const pid = deadPid();
    mkdirSync(join(dir, 'owner.lock'));
    writeFileSync(join(dir, 'owner.pid'), file(pid, ours));
    const refused = await refusal(lockDataDir(dir, onLost));
    expect(refused).toBeInstanceOf(DataDirBusyError);
    expect((refused as Error).message).toContain(message(pid));
  });

  it('gives the lock of a killed holder to one of several processes started at the same moment', async () => {
    const killed = hold();
    await killed.waitFor(/^locked$/m);
    killed.child.kill('SIGKILL');
    await killed.exited();

    const starts = Array.from({ length: 4 }, () => hold('--on-signal'));
    await Promise.all(starts.map((start) => start.waitFor(/^ready$/m)));
    for (const start of starts) start.child.kill('SIGUSR2');
    await vi.waitFor(() => starts.forEach((start) => expect(start.output()).toMatch(/^(locked|busy|lost)/m)), {
      timeout: 20_000,
    });

    // One judged the dead owner; the others, after it, found it alive.
    expect(starts.filter((start) => start.output().includes('no longer running'))).toHaveLength(1);
    const winners = starts.filter((start) => /^locked$/m.test(start.output()));
    expect(winners).toHaveLength(1);
    const winner = winners[0];
    expect(winner.output()).toContain(`was held by pid ${killed.child.pid}, which is no longer running`);
    for (const loser of starts.filter((start) => start !== winner)) {
      expect(await loser.exited()).toMatchObject({ code: 2 });
      expect(loser.output()).toContain(`busy DATA_DIR ${dir} is in use by another process (pid ${winner.child.pid})`);
    }
    // The winner holds it undisturbed.
    expect(winner.child.exitCode).toBeNull();
    expect(readFileSync(join(dir, 'owner.pid'), 'utf8')).toMatch(new RegExp(`^${winner.child.pid}\n`));
  }, 60_000);
});

/** The state letter of /proc/PID/stat (T: stopped, Z: exited but not reaped). */
function processState(pid: number): string {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  return stat.slice(stat.lastIndexOf(')') + 2)[0];
}

describe('openDatabase on a data directory', () => {
  it('opens one directory once: a second open fails with DataDirBusyError until the first closes', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'campus-bus-data-'));
    try {
      const first = await openDatabase({ dataDir: dir });
      try {
        await expect(openDatabase({ dataDir: dir })).rejects.toThrow(DataDirBusyError);
        await expect(openDatabase({ dataDir: dir })).rejects.toMatchObject({ holderPid: process.pid });
        // The first owner is undisturbed.
        const { rows } = (await first.db.execute('select 1 as one')) as unknown as { rows: { one: number }[] };
        expect(rows).toEqual([{ one: 1 }]);
      } finally {
        await first.close();
      }
      const reopened = await openDatabase({ dataDir: dir });
      await reopened.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
