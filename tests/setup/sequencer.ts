/**
 * The order the test files start in: the longest first (longest-processing-time-first, the usual
 * rule for jobs on a few machines), so that no long file starts last and runs alone while the
 * other worker idles. vitest's own order needs the durations of an earlier run, which a clean clone
 * (CI) does not have: it then starts the largest files first, and the prediction-quality files,
 * eight lines long and a minute of backtests each, came last.
 */
import { relative } from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * The longest files of a run, longest first (seconds on the 2-core machine, `npx vitest run
 * --reporter=json`: each file's end − start). Every other file follows in vitest's own order.
 */
const LONGEST_FIRST = [
  'tests/prediction-quality.test.ts', // 58
  'tests/prediction-quality-corridor.test.ts', // 56
  'api/runtime.test.ts', // 53
  'tests/lifecycle.test.ts', // 32
  'tests/start.test.ts', // 31
  'tests/mail.test.ts', // 30
  'tests/multi-instance.test.ts', // 23
  'api/routes/admin-auth.test.ts', // 21
  'tests/durability.test.ts', // 18
  'api/bus/predictions/departures/store.test.ts', // 17
  'api/rate-limit.test.ts', // 16
  'api/mail/sender.test.ts', // 15
  'api/db/client.test.ts', // 14
];

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
