/**
 * The two depths of the suite (README §Tests): `npm test`, the loop every change runs, and
 * `npm run test:deep` (TEST_DEEP=1), which runs the property tests' full counts and every
 * prediction seed. A check the loop runs lighter is the same check; the deep run only runs it on
 * more cases.
 */

/** Whether this is the deep run (`npm run test:deep` sets TEST_DEEP=1). */
export const DEEP = process.env.TEST_DEEP === '1';

/** A property test's number of runs: `deep` in the deep run, `loop` in the default one. */
export function propertyRuns(runs: { loop: number; deep: number }): number {
  return DEEP ? runs.deep : runs.loop;
}
