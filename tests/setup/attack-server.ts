/**
 * The attack suite's server (tests/attack-*.test.ts): the built web (build/server.js; `npm test`
 * builds first) with its api in-process, on a fresh PGlite directory, started once per file, and
 * requests sent the way someone on the internet would send them.
 */
import { connect } from 'node:net';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDatabase } from '../../api/db/client';
import { ads } from '../../api/db/schema';
import { SETUP_LINK_FILE } from '../../api/admin/setup';
import { afterAll, beforeAll, expect } from 'vitest';
import { freePort, runEntry, type EntryProcess } from './process';

const CLOCK_START = '2026-11-23T08:00:00+09:00';
export const ADMIN = { username: 'attack-admin', password: 'attack-password-1234' };
export const MB = 1024 * 1024;

/** The server's resident memory, in bytes (Linux /proc). */
export const rssOf = (pid: number) =>
  Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]) * 1024;

/** Linux's USER_HZ: /proc reports CPU times in ticks of 10 ms (proc(5)). */
const MS_PER_TICK = 10;

/**
 * The CPU time the server's main thread (its event loop; thread id = pid) has used, user and system,
 * in ms (fields 14–15 of Linux /proc/PID/task/PID/stat, in 10 ms ticks). Unlike wall time, it does
 * not grow when other test files share the cores, and it leaves out the worker threads.
 */
export function mainThreadCpuMs(pid: number) {
  const stat = readFileSync(`/proc/${pid}/task/${pid}/stat`, 'utf8');
  // The fields after the command's `(name)`, from field 3 (state): utime and stime are fields 14 and 15.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) * MS_PER_TICK;
}

/**
 * Starts, for the file, the built web on a fresh data directory holding one web ad (with a link, in
 * its paid period) and sets its first admin up through the setup link; kills it and removes the
 * directory after the file. Returns getters of the server, its address, its data directory, the
 * admin's cookie and the ad's id, and the ways of sending to it.
 */
export function attackServerFor() {
  let web: EntryProcess;
  let base: string;
  let dataDir: string;
  let adminCookie: string;
  let adId: number;

  /** A request from phone `ip` (the web trusts one proxy hop), from this site's pages unless `headers` say otherwise. */
  function send(path: string, init: RequestInit & { ip?: string } = {}) {
    const { ip = '203.0.113.1', headers, ...rest } = init;
    return fetch(`${base}${path}`, {
      redirect: 'manual',
      ...rest,
      headers: { Origin: base, 'X-Forwarded-For': ip, ...(headers as Record<string, string>) },
    });
  }

  /**
   * Sends `text` as it is on a new connection (half-closing it after when `halfClose`) and resolves
   * with the status of the first answer, or 0 when the server closed without one.
   */
  function raw(text: string, { halfClose = false } = {}) {
    return new Promise<number>((resolve) => {
      const socket = connect(Number(new URL(base).port), '127.0.0.1');
      let answer = '';
      socket.on('data', (chunk: Buffer) => {
        answer += chunk.toString('latin1');
        const status = /^HTTP\/1\.1 (\d{3})/.exec(answer);
        if (status) {
          resolve(Number(status[1]));
          socket.destroy();
        }
      });
      socket.on('close', () => resolve(0));
      socket.on('error', () => resolve(0));
      socket.write(text, () => (halfClose ? socket.end() : undefined));
    });
  }

  /** A form POST (urlencoded) from this site. */
  const postForm = (path: string, fields: Record<string, string>, init: RequestInit & { ip?: string } = {}) =>
    send(path, { method: 'POST', body: new URLSearchParams(fields), ...init });

  /**
   * A POST of `size` bytes to `path`, sent by another process (tests/setup/flood.ts), declared with
   * Content-Length unless `chunked`, stopped once the answer comes.
   */
  async function flood(path: string, size: number, { chunked = false } = {}) {
    const sender = runEntry('tests/setup/flood.ts', {}, [
      '--url',
      `${base}${path}`,
      '--size',
      String(size),
      '--origin',
      base,
      ...(chunked ? ['--chunked'] : []),
    ]);
    await sender.exited();
    return JSON.parse(sender.output().trim().split('\n').at(-1)!) as {
      status: number;
      ms: number;
      bytes: number;
      contentType: string;
      body: string;
    };
  }

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'campus-bus-attack-'));
    // A web ad with a link, in its paid period, for the clicks.
    const database = await openDatabase({ dataDir });
    const now = new Date(CLOCK_START);
    [{ id: adId }] = await database.db
      .insert(ads)
      .values({
        type: 'web',
        title: '공격 테스트 광고',
        redirectUrl: 'https://shop.example/menu',
        position: 1,
        startsAt: new Date('2026-11-01T00:00:00+09:00'),
        endsAt: new Date('2026-12-31T00:00:00+09:00'),
        createdAt: now,
        updatedAt: now,
      })
      .returning({ id: ads.id });
    await database.close();

    const port = await freePort();
    base = `http://localhost:${port}`;
    web = runEntry('build/server.js', {
      PORT: String(port),
      DATA_DIR: dataDir,
      CLOCK_START,
      TRUST_PROXY: '1',
      COOKIE_SECURE: 'false',
      KAKAO_SKILL_SECRET: 's'.repeat(40),
    });
    // Not on a terminal, the link goes to an owner-only file the log names (docs/deploy.md §Logs).
    await web.waitFor(/setup link is in /, 90_000);
    // Start-up's own work (the demo history, then the day's accuracy backtest) done, so that what is
    // measured below is the attacks' effect alone.
    await web.waitFor(/\[accuracy\] today's prediction accuracy computed/, 120_000);
    const token = /setup\?token=([\w-]+)/.exec(readFileSync(join(dataDir, SETUP_LINK_FILE), 'utf8'))![1];
    const setup = await postForm('/admin-only/setup', { token, ...ADMIN, passwordConfirm: ADMIN.password });
    expect(setup.status).toBe(303);
    adminCookie = setup.headers.get('Set-Cookie')!.split(';')[0];
  }, 240_000);

  afterAll(() => {
    if (web?.child.exitCode === null) web.child.kill('SIGKILL');
    rmSync(dataDir, { recursive: true, force: true });
  });

  return {
    web: () => web,
    base: () => base,
    dataDir: () => dataDir,
    adminCookie: () => adminCookie,
    adId: () => adId,
    send,
    raw,
    postForm,
    flood,
  };
}
