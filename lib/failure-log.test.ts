import { recordingLogger } from '../tests/setup/fakes';
import { failureLog } from './failure-log';

describe('failureLog.orNull', () => {
  // A read's answer passes through; a throw gives null, logged once per run of failures and once on recovery.
  it('answers the read, or null when it throws, logging the run of failures once and its end', async () => {
    const logger = recordingLogger();
    const reads = failureLog(logger, { failing: 'cannot read', recovered: 'reads again' });
    const broken = async (): Promise<number> => {
      throw new Error('down');
    };
    expect(await reads.orNull(async () => 7)).toBe(7);
    expect(await reads.orNull(broken)).toBeNull();
    expect(await reads.orNull(broken)).toBeNull();
    expect(logger.lines).toEqual(['cannot read Error: down']);
    expect(await reads.orNull(() => 8)).toBe(8);
    expect(logger.lines).toEqual(['cannot read Error: down', 'reads again']);
  });
});
