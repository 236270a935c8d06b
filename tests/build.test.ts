/**
 * Issue 11: `npm start` does not rebuild when the build is up to date with the sources. `npm test`
 * builds before vitest, so the check `npm start` runs first must find nothing to do.
 */
import { execFileSync } from 'node:child_process';

describe('the build stamp', () => {
  it('finds a fresh build up to date, so npm start does not rebuild', () => {
    const output = execFileSync(process.execPath, ['--import', 'tsx', 'scripts/build.ts', '--if-stale'], {
      encoding: 'utf8',
    });
    expect(output).toBe('[build] up to date with the sources: not rebuilt.\n');
  }, 60_000);
});
