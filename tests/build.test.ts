/**
 * Issue 11: `npm start` does not rebuild when the build is up to date with the sources. `npm test`
 * builds before vitest, so the check `npm start` runs first (scripts/start.js) must find nothing to do.
 */
import { buildIsFresh } from '../scripts/build-inputs.js';

describe('the build stamp', () => {
  it('finds a fresh build up to date, so npm start does not rebuild', () => {
    expect(buildIsFresh()).toBe(true);
  });
});
