import { parseApiEnv } from './env';

describe('parseApiEnv: IMAGE_STORAGE_MAX_MB', () => {
  it('defaults to 1024 MB and reads a whole number of MB', () => {
    expect(parseApiEnv({}).IMAGE_STORAGE_MAX_MB).toBe(1024);
    expect(parseApiEnv({ IMAGE_STORAGE_MAX_MB: '2048' }).IMAGE_STORAGE_MAX_MB).toBe(2048);
  });

  it.each(['lots', '0', '-5', '1.5', '1e400'])('stops with a message naming the variable for %j', (value) => {
    expect(() => parseApiEnv({ IMAGE_STORAGE_MAX_MB: value })).toThrow(/IMAGE_STORAGE_MAX_MB: /);
  });
});
