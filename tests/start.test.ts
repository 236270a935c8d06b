/**
 * The start as a process (ADR 025; built: `npm run build`, which `npm test` runs first): a fresh
 * clone's first `npm start` says what it does while it builds, a line per step, with no deprecation
 * warning; the built web serves its first page (GET / with the real page) before the start-up's
 * history work (the demo back-fill, then the day's accuracy backtest), which follows it.
 */
import { cpSync, mkdirSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { inputFiles } from '../scripts/build-inputs.js';
import { freePort, runEntry, type EntryProcess } from './setup/process';

const CLOCK_START = '2026-11-23T08:00:00+09:00';

describe('the start', () => {
  const cleanups: (() => void)[] = [];
  const running: EntryProcess[] = [];
  afterEach(() => {
    for (const entry of running.splice(0)) if (entry.child.exitCode === null) entry.child.kill('SIGKILL');
    for (const cleanup of cleanups.splice(0)) cleanup();
  });
  const temporary = (prefix: string) => {
    const dir = mkdtempSync(join(tmpdir(), prefix));
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    return dir;
  };
  /** The position of `pattern`'s first match in `text`, failing the test when there is none. */
  const at = (text: string, pattern: RegExp) => {
    const index = text.search(pattern);
    expect(index, `${pattern} in:\n${text}`).toBeGreaterThanOrEqual(0);
    return index;
  };

  it('builds a fresh clone on its first `npm start`, a [build] line per step and no deprecation warning, then serves', async () => {
    // A clone as `npm start` needs it: the build's inputs (the migrations among them) and the start
    // script; no build/; the packages installed.
    const clone = temporary('campus-bus-clone-');
    for (const file of [...inputFiles('.'), 'scripts/start.js']) {
      mkdirSync(dirname(join(clone, file)), { recursive: true });
      cpSync(file, join(clone, file), { recursive: true });
    }
    symlinkSync(resolve('node_modules'), join(clone, 'node_modules'));
    const web = runEntry(
      'scripts/start.js',
      { PORT: String(await freePort()), DATA_DIR: temporary('campus-bus-clone-data-'), CLOCK_START },
      [],
      clone,
    );
    running.push(web);
    await web.waitFor(/\[web\] \(api in-process\) listening on/, 170_000);

    const output = web.output();
    const steps = [
      /^\[start\] building the app \(first start or sources changed\)…$/m,
      /^\[build\] 1\/4 the database seed → build\/pglite-seed\.tar\.gz \(initdb and the migrations, beside the next steps\)…$/m,
      /^\[build\] 2\/4 the pages: Remix's compiler → build\/index\.js, public\/build\/ \(NODE_ENV=production\)…$/m,
      /^\[build\] 3\/4 the service worker and the offline page → public\/sw\.js, public\/offline\.html…$/m,
      /^\[build\] 4\/4 the entries → build\/server\.js, build\/api\.js, .*…$/m,
      /^\[build\] done in \d+\.\d s\.$/m,
      /^\[web\] \(api in-process\) listening on/m,
    ];
    const positions = steps.map((step) => at(output, step));
    expect(positions).toEqual([...positions].sort((a, b) => a - b));
    expect(output).not.toMatch(/deprecat/i);
  }, 180_000);

  it("serves its first page before the history's work, which begins with the demo back-fill", async () => {
    const port = await freePort();
    const web = runEntry('build/server.js', {
      PORT: String(port),
      DATA_DIR: temporary('campus-bus-start-'),
      CLOCK_START,
      DEMO_HISTORY_DAYS: '28',
    });
    running.push(web);
    await web.waitFor(/listening on/, 60_000);
    const page = await fetch(`http://localhost:${port}/`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('<title>외대 버스 — 실시간 도착 정보</title>');
    // The back-fill's line is the history's work begun; the day's accuracy follows it (its ~15 s
    // of backtest are api/runtime.test.ts's to wait for).
    await web.waitFor(/\[departures\] demo history: [1-9]\d* back-filled departures written/, 120_000);

    const output = web.output();
    const order = [
      /listening on/,
      /\[web\] \(api in-process\) first page answered \d+\.\d\d s after the process began\./,
      /\[departures\] demo history: [1-9]\d* back-filled departures written/,
    ].map((pattern) => at(output, pattern));
    expect(order).toEqual([...order].sort((a, b) => a - b));
  }, 180_000);
});
