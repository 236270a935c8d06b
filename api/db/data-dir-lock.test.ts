import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDatabase } from './client';
import { DataDirBusyError, lockDataDir } from './data-dir-lock';

describe('lockDataDir', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'campus-bus-data-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const onLost = vi.fn();
  afterEach(() => expect(onLost).not.toHaveBeenCalled());

  it('refuses a second owner with DataDirBusyError naming the holder’s pid, and lets go on release', async () => {
    const release = await lockDataDir(dir, onLost);
    expect(readFileSync(join(dir, 'owner.pid'), 'utf8')).toBe(`${process.pid}\n`);

    const second = await lockDataDir(dir, onLost).then(
      () => null,
      (error: unknown) => error,
    );
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
});

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
