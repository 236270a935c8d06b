import { mkdtempSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startPushService, TEST_VAPID as VAPID, type LoopbackPushService } from '../../tests/setup/push';
import { retryAfterMs, sendPush, vapidKeysOf, vapidPublicKeyOf } from './push';

describe('sendPush, to a loopback push service', () => {
  let service: LoopbackPushService;
  beforeEach(async () => {
    service = await startPushService();
  });
  afterEach(() => service.close());

  it('posts a message the service accepts: VAPID JWT for its origin, decrypting with the browser’s key', async () => {
    const browser = service.subscribe('phone');
    const payload = JSON.stringify({
      title: '1150번 버스 알림',
      body: '1150번 버스가 약 5분 후 외대사거리에 도착합니다.',
    });
    expect(await sendPush(browser.subscription, payload, { vapid: VAPID, ttlSec: 299.6 })).toEqual({ kind: 'sent' });
    expect(service.refused).toEqual([]);
    expect(service.delivered).toEqual([
      {
        name: 'phone',
        at: expect.any(Date),
        ttl: 299,
        urgency: 'high',
        claims: { aud: service.origin, exp: expect.any(Number), sub: 'mailto:admin@bus.example.com' },
        payload,
      },
    ]);
  });

  it('reads 404 and 410 as a gone subscription, 429 and 5xx as retry (with Retry-After), another 4xx as failed', async () => {
    const browser = service.subscribe('phone');
    const send = () => sendPush(browser.subscription, 'x', { vapid: VAPID, ttlSec: 60 });
    const answers = [
      [{ status: 410 }, { kind: 'gone', status: 410 }],
      [{ status: 404 }, { kind: 'gone', status: 404 }],
      [
        { status: 429, headers: { 'Retry-After': '7' } },
        { kind: 'retry', afterMs: 7000, reason: 'HTTP 429' },
      ],
      [{ status: 503 }, { kind: 'retry', afterMs: null, reason: 'HTTP 503' }],
      [{ status: 413 }, { kind: 'failed', reason: 'HTTP 413' }],
    ] as const;
    for (const [answer, outcome] of answers) {
      service.answer(() => answer);
      expect(await send()).toEqual(outcome);
    }
    expect(service.delivered).toEqual([]);
  });

  it('gives up on a service that does not answer in time, as a retry', async () => {
    const browser = service.subscribe('phone');
    service.answer(() => 'hold');
    const outcome = await sendPush(browser.subscription, 'x', { vapid: VAPID, ttlSec: 60, timeoutMs: 200 });
    expect(outcome).toMatchObject({ kind: 'retry', afterMs: null });
  });

  it('is refused by the service when signed with another key pair than the one it states', async () => {
    const browser = service.subscribe('phone');
    const other = 'd0cRFHwqvGLZbC2sqJzvCiphE6Xt7w4PlBtmKtpFcJc';
    await sendPush(browser.subscription, 'x', { vapid: { ...VAPID, privateKey: other }, ttlSec: 60 });
    expect(service.refused).toEqual(['bad signature']);
  });
});

describe('retryAfterMs', () => {
  it('reads seconds and HTTP dates, and nothing else', () => {
    const now = Date.parse('2026-11-23T00:00:00Z');
    expect(retryAfterMs('120', now)).toBe(120_000);
    expect(retryAfterMs('Mon, 23 Nov 2026 00:00:30 GMT', now)).toBe(30_000);
    expect(retryAfterMs(null, now)).toBeNull();
    expect(retryAfterMs('soon', now)).toBeNull();
  });
});

describe('vapidKeysOf', () => {
  it('derives the public key from the private key', () => {
    expect(vapidPublicKeyOf(VAPID.privateKey)).toBe(VAPID.publicKey);
  });

  const env = { DATA_DIR: '' };
  it('takes the env’s keys; without them keeps one key pair under DATA_DIR on the embedded default, and none in production', () => {
    const given = {
      ...env,
      VAPID_PUBLIC_KEY: VAPID.publicKey,
      VAPID_PRIVATE_KEY: VAPID.privateKey,
      VAPID_SUBJECT: VAPID.subject,
    };
    expect(vapidKeysOf(given, false)).toEqual(VAPID);
    expect(vapidKeysOf(env, false)).toBeNull();

    const dataDir = mkdtempSync(join(tmpdir(), 'campus-bus-vapid-'));
    const first = vapidKeysOf({ DATA_DIR: dataDir, PUBLIC_BASE_URL: 'https://bus.example.com' }, true)!;
    expect(first.subject).toBe('https://bus.example.com');
    expect(first.publicKey).toBe(vapidPublicKeyOf(first.privateKey));
    expect(vapidKeysOf({ DATA_DIR: dataDir }, true)).toEqual({ ...first, subject: 'mailto:campus-bus@localhost' });
    const file = join(dataDir, 'secrets', 'VAPID_PRIVATE_KEY');
    expect(readFileSync(file, 'utf8').trim()).toBe(first.privateKey);
    expect(statSync(file).mode & 0o777).toBe(0o600);
  });
});
