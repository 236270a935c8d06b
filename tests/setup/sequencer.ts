/**
 * The order the test files start in: the longest first (longest-processing-time-first, the usual
 * rule for jobs on a few machines), so that no long file starts last and runs alone while the
 * other worker idles. vitest's own order needs the durations of an earlier run, which a clean clone
 * (CI) does not have: it then starts the largest files first, and the prediction-quality files,
 * eight lines long and a minute of backtests each, came last.
 */
import { existsSync } from 'node:fs';
import { relative } from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * The longest files of a run, longest first (seconds on the 2-core machine with three workers: the
 * time each file's line gives in a full `npx vitest run`, 2026-11-29). Every other file follows in
 * vitest's own order.
 */
const LONGEST_FIRST = [
  'tests/prediction-quality-corridor.test.ts', // 90
  'tests/prediction-quality.test.ts', // 56
  'tests/lifecycle.test.ts', // 53
  'tests/attack-bodies.test.ts', // 40
  'tests/mail.test.ts', // 35, mostly waiting out a dead sender's 30 s claim
  'api/runtime.test.ts', // 34
  'tests/attack-requests.test.ts', // 31
  'tests/start.test.ts', // 29
  'tests/attack-forms.test.ts', // 28
  'api/bus/predictions/departures/store.test.ts', // 21
  'api/rate-limit.test.ts', // 18
  'tests/faults.test.ts', // 18
  'api/db/data-dir-lock.test.ts', // 17
  'tests/refresh-fanout.test.ts', // 17
  'api/db/client.test.ts', // 17
];

// A renamed or split file must leave this list too: a stale name would quietly order nothing.
const missing = LONGEST_FIRST.filter((file) => !existsSync(new URL(`../../${file}`, import.meta.url)));
if (missing.length > 0)
  throw new Error(`tests/setup/sequencer.ts lists files that do not exist: ${missing.join(', ')}`);

export class LongestFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const root = this.ctx.config.root;
    const rank = (file: TestSpecification) => {
      const index = LONGEST_FIRST.indexOf(relative(root, file.moduleId));
      return index === -1 ? LONGEST_FIRST.length : index;
    };
    // Array#sort is stable: the files not listed keep vitest's order among themselves.
    return (await super.sort(files)).sort((a, b) => rank(a) - rank(b));
  }
}
