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

describe('parseApiEnv: DEMO_HISTORY_DAYS', () => {
  it('defaults to 28 days and reads 0 to 28', () => {
    expect(parseApiEnv({}).DEMO_HISTORY_DAYS).toBe(28);
    expect(parseApiEnv({ DEMO_HISTORY_DAYS: '0' }).DEMO_HISTORY_DAYS).toBe(0);
  });

  it.each(['29', '-1', '2.5', 'all'])('stops with a message naming the variable for %j', (value) => {
    expect(() => parseApiEnv({ DEMO_HISTORY_DAYS: value })).toThrow(/DEMO_HISTORY_DAYS: /);
  });
});

describe('parseApiEnv: e-mail', () => {
  const mail = {
    SMTP_URL: 'smtps://bus:secret@smtp.example.com:465',
    MAIL_FROM: '외대 버스 <bus@example.com>',
    PUBLIC_BASE_URL: 'https://bus.example.com',
  };

  it('reads the mail settings, the admins as a list of addresses', () => {
    const env = parseApiEnv({ ...mail, ADMIN_NOTIFY_EMAILS: ' a@example.com, b@example.com ,' });
    expect(env).toMatchObject({ ...mail, ADMIN_NOTIFY_EMAILS: ['a@example.com', 'b@example.com'] });
    expect(parseApiEnv({}).ADMIN_NOTIFY_EMAILS).toEqual([]);
  });

  it.each([
    [{ ...mail, SMTP_URL: 'http://smtp.example.com' }, /SMTP_URL: must be an smtp:\/\/ or smtps:\/\/ URL/],
    [{ ...mail, MAIL_FROM: undefined }, /MAIL_FROM: MAIL_FROM is required with SMTP_URL/],
    [{ ...mail, MAIL_FROM: 'not an address' }, /MAIL_FROM: expected an address/],
    [{ ...mail, MAIL_FROM: 'a@example.com, b@example.com' }, /MAIL_FROM: expected an address/],
    [{ ...mail, PUBLIC_BASE_URL: undefined }, /PUBLIC_BASE_URL: PUBLIC_BASE_URL is required with SMTP_URL/],
    [{ ...mail, PUBLIC_BASE_URL: 'http://bus.example.com' }, /PUBLIC_BASE_URL: must be an https URL/],
    [
      { ...mail, ADMIN_NOTIFY_EMAILS: 'a@example.com, nobody' },
      /ADMIN_NOTIFY_EMAILS: "nobody" is not an e-mail address/,
    ],
    [{ AD_BANK_NAME: '농협' }, /AD_BANK_NAME: set AD_BANK_NAME, AD_BANK_ACCOUNT and AD_BANK_HOLDER together/],
  ])('refuses %j, naming the variable', (source, message) => {
    expect(() => parseApiEnv(source)).toThrow(message);
  });

  it('takes http://localhost as the public base for a trial', () => {
    expect(parseApiEnv({ ...mail, PUBLIC_BASE_URL: 'http://localhost:3000/' }).PUBLIC_BASE_URL).toBe(
      'http://localhost:3000',
    );
  });
});

describe('parseApiEnv: metrics and logs', () => {
  it('has no metrics port and logs at info unless set, an empty value counting as unset', () => {
    for (const env of [{}, { METRICS_PORT: '', METRICS_HOST: '', LOG_FORMAT: '', LOG_LEVEL: '' }]) {
      const parsed = parseApiEnv(env);
      expect(parsed).toMatchObject({ METRICS_HOST: '127.0.0.1', LOG_LEVEL: 'info' });
      expect([parsed.METRICS_PORT, parsed.LOG_FORMAT]).toEqual([undefined, undefined]);
    }
    expect(parseApiEnv({ METRICS_PORT: '9464', LOG_FORMAT: 'json' })).toMatchObject({
      METRICS_PORT: 9464,
      LOG_FORMAT: 'json',
    });
  });

  it.each([
    ['METRICS_PORT', '70000'],
    ['METRICS_PORT', 'nine'],
    ['LOG_FORMAT', 'xml'],
    ['LOG_LEVEL', 'verbose'],
  ])('stops with a message naming %s for %j', (name, value) => {
    expect(() => parseApiEnv({ [name]: value })).toThrow(new RegExp(`${name}: `));
  });
});

describe('parseApiEnv: PUSH_ENDPOINT_HOSTS', () => {
  it('takes a list of hosts, *.hosts and host:ports, unset by default', () => {
    expect(parseApiEnv({}).PUSH_ENDPOINT_HOSTS).toBeUndefined();
    expect(
      parseApiEnv({ PUSH_ENDPOINT_HOSTS: 'push.example,*.relay.example,127.0.0.1:8099' }).PUSH_ENDPOINT_HOSTS,
    ).toBe('push.example,*.relay.example,127.0.0.1:8099');
  });

  it('stops with a message naming the variable and the entry that is no host', () => {
    expect(() => parseApiEnv({ PUSH_ENDPOINT_HOSTS: 'push.example,https://evil.example' })).toThrow(
      /PUSH_ENDPOINT_HOSTS: .*"https:\/\/evil\.example"/,
    );
  });
});

describe('parseApiEnv: VAPID_*', () => {
  const keys = {
    VAPID_PUBLIC_KEY: 'BM-rSl5flNtPuNjZOpwYLNMPLUp3vGoP6cyZ9xERDIYsPW4CYSc5VVnVJSMRfUnzgEQeY9vCgKSlc5Q9o_Z1-g8',
    VAPID_PRIVATE_KEY: 'rJ3jwIj6t5v0Ai-PmFJ4BMVRhJTVWVHqSmpF5dRgwiI',
    VAPID_SUBJECT: 'mailto:admin@bus.example.com',
  };

  it('takes a key pair and its contact together, or none', () => {
    expect(parseApiEnv(keys)).toMatchObject(keys);
    expect(parseApiEnv({}).VAPID_PRIVATE_KEY).toBeUndefined();
    expect(() => parseApiEnv({ VAPID_PRIVATE_KEY: keys.VAPID_PRIVATE_KEY })).toThrow(
      /VAPID_PUBLIC_KEY: set VAPID_PUBLIC_KEY, VAPID_PRIVATE_KEY and VAPID_SUBJECT together/,
    );
  });

  it('refuses a public key that is not the private key’s, and a contact that is no mailto: or https: URL', () => {
    const other = 'BOv8P1ifCbYkyqYjtpdcDOw3kQQcKLDOyAc4xmySqYIp7oCVgnYspcXQoKDiQpi60a2FxOvUhoOy8P_iWvs5SoA';
    expect(() => parseApiEnv({ ...keys, VAPID_PUBLIC_KEY: other })).toThrow(
      /VAPID_PUBLIC_KEY: is not the public key of VAPID_PRIVATE_KEY/,
    );
    expect(() => parseApiEnv({ ...keys, VAPID_SUBJECT: 'http://bus.example.com' })).toThrow(
      /VAPID_SUBJECT: must be a mailto: or https: URL/,
    );
  });
});
