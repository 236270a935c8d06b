/**
 * `npm run backtest -- --history FILE --predictions-out OUT.csv` as anyone runs it:
 * the built entry (build/backtest.js, which scripts/start.js runs; `npm run build` first, as `npm
 * test` does) as a child process on a generated history, whose written plan an outside evaluator
 * can read and score.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { serviceClock } from '../api/time';
import { generateHistory, historyCsv } from './history-generator';

const root = fileURLToPath(new URL('..', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'backtest-cli-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

it('writes the predicted day plan of each test day beside the table', { timeout: 60_000 }, async () => {
  const { rows } = generateHistory({ seed: 7, lastDate: '2026-11-15', days: 30 });
  const history = join(dir, 'history.csv');
  const out = join(dir, 'predictions.csv');
  writeFileSync(history, historyCsv(rows, false));

  const { stdout, stderr } = await promisify(execFile)(
    process.execPath,
    ['build/backtest.js', '--history', history, '--days', '3', '--predictions-out', out],
    { cwd: root, env: { ...process.env, DATABASE_URL: '', CLOCK_START: '' } },
  );
  expect(stdout).toMatch(/^Backtest of 3 service days \(2026-11-13 – 2026-11-15\)/);
  expect(stdout).toMatch(
    /\nCadence: a development key's poll plan \(1,000 calls a day\): estimate ETA \d+\.\d %; seen as it leaves \(ideal\): \d+\.\d %\.\n$/,
  );

  const [header, ...lines] = readFileSync(out, 'utf8').trimEnd().split('\n');
  expect(header).toBe('routeNo,serviceDate,predictedAt,lowerAt,upperAt');
  expect(stderr).toContain(`${lines.length} predicted departures of 3 days written to ${out}.`);
  const rowsOf = (date: string) => lines.filter((line) => line.split(',')[1] === date);
  for (const date of ['2026-11-13', '2026-11-14', '2026-11-15']) {
    // Each test day has a plan for every route (over 20 runs a day), in KST in that service day.
    for (const routeNo of ['1150', '1117', '1303', '1005']) {
      expect(rowsOf(date).filter((line) => line.startsWith(`${routeNo},`)).length).toBeGreaterThan(20);
    }
    for (const line of rowsOf(date)) {
      const [predictedAt, lowerAt, upperAt] = line.split(',').slice(2);
      expect(predictedAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+09:00$/);
      expect(serviceClock(new Date(predictedAt)).serviceDate).toBe(date);
      // A history estimate's 80 % range holds its point (a timetable one states none: both empty).
      if (lowerAt) expect(lowerAt <= predictedAt && predictedAt <= upperAt).toBe(true);
      else expect(upperAt).toBe('');
    }
  }
  // Nothing of other days: the plans are the test days'.
  expect(lines.length).toBe(['2026-11-13', '2026-11-14', '2026-11-15'].reduce((n, date) => n + rowsOf(date).length, 0));
});

it(
  'answers --help with its usage, and an unknown option with the parser message and exit code 2',
  { timeout: 60_000 },
  async () => {
    const run = (...args: string[]) =>
      new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
        execFile(process.execPath, ['build/backtest.js', ...args], { cwd: root }, (error, stdout, stderr) =>
          resolve({ code: error ? (error.code as number) : 0, stdout, stderr }),
        );
      });
    const usage =
      'Usage: npm run backtest -- [--days 14] [--history FILE.csv] [--json] [--predictions-out OUT.csv] ' +
      '[--seen-after SEC | --key CALLS]';
    const [help, bogus, both] = await Promise.all([
      run('--help'),
      run('--predictions', 'x.csv'),
      run('--seen-after', '60', '--key', '1000'),
    ]);
    expect(both.code).toBe(2);
    expect(both.stderr).toBe(`--seen-after and --key are two cadences: give one.\n${usage}\n`);
    expect(help).toEqual({ code: 0, stdout: `${usage}\n`, stderr: '' });
    expect(bogus.code).toBe(2);
    expect(bogus.stdout).toBe('');
    expect(bogus.stderr).toBe(`Unknown option '--predictions'
${usage}
`);
  },
);
