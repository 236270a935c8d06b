import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SECRET_MIN_LENGTH, storedSecret } from './secrets';

describe('storedSecret', () => {
  let dataDir: string;
  beforeEach(() => {
    dataDir = mkdtempSync(join(tmpdir(), 'campus-bus-secrets-'));
  });
  afterEach(() => rmSync(dataDir, { recursive: true, force: true }));

  it('generates a secret once, keeps it in DATA_DIR/secrets with mode 0600, and answers it ever after', () => {
    const secret = storedSecret(dataDir, 'SESSION_SECRET');
    expect(secret).toMatch(/^[0-9a-f]{64}$/);
    expect(secret.length).toBeGreaterThanOrEqual(SECRET_MIN_LENGTH);
    expect(SECRET_MIN_LENGTH).toBe(32);

    const file = join(dataDir, 'secrets', 'SESSION_SECRET');
    expect(readFileSync(file, 'utf8')).toBe(`${secret}\n`);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(statSync(join(dataDir, 'secrets')).mode & 0o777).toBe(0o700);

    expect(storedSecret(dataDir, 'SESSION_SECRET')).toBe(secret);
    expect(readFileSync(file, 'utf8')).toBe(`${secret}\n`);
  });

  it('keeps one secret per name', () => {
    const session = storedSecret(dataDir, 'SESSION_SECRET');
    const token = storedSecret(dataDir, 'API_SERVICE_TOKEN');
    expect(token).toMatch(/^[0-9a-f]{64}$/);
    expect(token).not.toBe(session);
    expect(storedSecret(dataDir, 'API_SERVICE_TOKEN')).toBe(token);
  });

  it('refuses a kept secret shorter than 32 characters rather than use it', () => {
    storedSecret(dataDir, 'API_SERVICE_TOKEN');
    writeFileSync(join(dataDir, 'secrets', 'API_SERVICE_TOKEN'), 'short\n');
    expect(() => storedSecret(dataDir, 'API_SERVICE_TOKEN')).toThrow(/shorter than 32 characters/);
  });
});
