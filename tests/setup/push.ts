/**
 * Web Push for the tests (docs/decisions/033-web-push-reminders.md): a browser's subscription, and a
 * loopback push service that receives what the server posts to it as a real one would: it checks
 * the VAPID JWT (RFC 8292: ES256, `aud` its origin, `exp` within 24 h, `sub` a contact) and
 * decrypts the aes128gcm body (RFC 8291, RFC 8188) with the subscribing browser's private key.
 * Both are written here from the RFCs, not with the library the server sends with, so the test
 * checks the server against the protocol rather than against itself.
 */
import { createECDH, createDecipheriv, createPublicKey, hkdfSync, randomBytes, verify, type ECDH } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A subscription as PushSubscription.toJSON() gives it. */
export type BrowserSubscription = { endpoint: string; keys: { p256dh: string; auth: string } };

/**
 * A subscription as PushSubscription.toJSON() gives it: `endpoint`, a fresh P-256 key pair's public
 * key (65 bytes, uncompressed) and a 16-byte secret, each base64url (RFC 8291).
 */
export function browserSubscription(endpoint = 'https://fcm.googleapis.com/fcm/send/phone-1'): BrowserSubscription {
  return pushBrowser(endpoint).subscription;
}

/** A browser's side of a subscription: what it gives the page, and how it opens a message. */
export type PushBrowser = {
  subscription: BrowserSubscription;
  /** The plaintext of an aes128gcm message sent to it. @throws when it does not decrypt. */
  open(body: Buffer): string;
};

/** A browser subscribed at `endpoint`, with a fresh key pair and secret. */
export function pushBrowser(endpoint: string): PushBrowser {
  const ecdh = createECDH('prime256v1');
  ecdh.generateKeys();
  const auth = randomBytes(16);
  return {
    subscription: {
      endpoint,
      keys: { p256dh: ecdh.getPublicKey().toString('base64url'), auth: auth.toString('base64url') },
    },
    open: (body) => decryptAes128gcm(body, ecdh, auth),
  };
}

/** RFC 8291 §3.4 and RFC 8188 §2: one record's plaintext. */
function decryptAes128gcm(body: Buffer, ua: ECDH, authSecret: Buffer): string {
  const salt = body.subarray(0, 16);
  const idLength = body[20];
  const asPublic = body.subarray(21, 21 + idLength);
  const record = body.subarray(21 + idLength);
  const ecdhSecret = ua.computeSecret(asPublic);
  const keyInfo = Buffer.concat([Buffer.from('WebPush: info\0'), ua.getPublicKey(), asPublic]);
  const ikm = Buffer.from(hkdfSync('sha256', ecdhSecret, authSecret, keyInfo, 32));
  const cek = Buffer.from(hkdfSync('sha256', ikm, salt, Buffer.from('Content-Encoding: aes128gcm\0'), 16));
  const nonce = Buffer.from(hkdfSync('sha256', ikm, salt, Buffer.from('Content-Encoding: nonce\0'), 12));
  const decipher = createDecipheriv('aes-128-gcm', cek, nonce);
  decipher.setAuthTag(record.subarray(record.length - 16));
  const padded = Buffer.concat([decipher.update(record.subarray(0, record.length - 16)), decipher.final()]);
  let end = padded.length - 1;
  while (end >= 0 && padded[end] === 0) end--;
  if (padded[end] !== 2) throw new Error('not the last record (no 0x02 delimiter)');
  return padded.subarray(0, end).toString('utf8');
}

/** A message the loopback service took: its subscription's name, headers, VAPID claims and plaintext. */
export type PushDelivery = {
  name: string;
  at: Date;
  ttl: number;
  urgency: string | null;
  claims: { aud: string; exp: number; sub: string };
  payload: string;
};

/**
 * How the service answers a valid message: a status, and headers (Retry-After), after `delayMs`
 * (default at once); or 'hold' (never answer).
 */
export type PushAnswer = { status: number; headers?: Record<string, string>; delayMs?: number } | 'hold';

export type LoopbackPushService = {
  /** "127.0.0.1:port", for PUSH_ENDPOINT_HOSTS. */
  host: string;
  origin: string;
  /** A new browser subscribed to this service as `name` (its endpoint `${origin}/push/${name}`). */
  subscribe(name: string): PushBrowser;
  /** The messages taken (2xx), in order. */
  delivered: PushDelivery[];
  /** Every request refused for a bad VAPID JWT or body, with why. */
  refused: string[];
  /** Every request received, valid or not (a held one included). */
  received(): number;
  /** The most requests it was answering at once. */
  maxConcurrent(): number;
  /** How the next valid messages are answered (default 201). */
  answer(next: (name: string) => PushAnswer): void;
  /** Resolves when `count` messages have been received. */
  receivedCount(count: number): Promise<void>;
  close(): Promise<void>;
};

/**
 * Starts a loopback push service on 127.0.0.1 (a free port). `now` stamps the deliveries (a test's
 * clock; default the system's); `exp` is checked against the system clock, as a real service does.
 */
export async function startPushService(now: () => number = Date.now): Promise<LoopbackPushService> {
  const browsers = new Map<string, PushBrowser>();
  const delivered: PushDelivery[] = [];
  const refused: string[] = [];
  const held: ServerResponse[] = [];
  let received = 0;
  let open = 0;
  let maxOpen = 0;
  let waiters: { count: number; resolve: () => void }[] = [];
  let answerOf: (name: string) => PushAnswer = () => ({ status: 201 });
  let origin = '';

  const handle = async (request: IncomingMessage, response: ServerResponse) => {
    maxOpen = Math.max(maxOpen, ++open);
    response.once('close', () => open--);
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    received++;
    waiters = waiters.filter((waiter) => (received >= waiter.count ? (waiter.resolve(), false) : true));
    const name = /^\/push\/([^/]+)$/.exec(request.url ?? '')?.[1];
    const browser = name ? browsers.get(name) : undefined;
    const refuse = (status: number, why: string) => {
      refused.push(why);
      response.writeHead(status).end(why);
    };
    if (request.method !== 'POST' || !name || !browser) return refuse(404, 'no such subscription');
    if (request.headers['content-encoding'] !== 'aes128gcm') return refuse(400, 'not aes128gcm');
    const ttl = Number(request.headers.ttl);
    if (!Number.isInteger(ttl) || ttl < 0) return refuse(400, 'no TTL');
    let claims: PushDelivery['claims'];
    try {
      claims = checkVapid(request.headers.authorization ?? '', origin, Date.now());
    } catch (error) {
      return refuse(403, (error as Error).message);
    }
    let payload: string;
    try {
      payload = browser.open(Buffer.concat(chunks));
    } catch (error) {
      return refuse(400, `does not decrypt: ${(error as Error).message}`);
    }
    const answer = answerOf(name);
    if (answer === 'hold') {
      held.push(response);
      return;
    }
    if (answer.status >= 200 && answer.status < 300) {
      delivered.push({
        name,
        at: new Date(now()),
        ttl,
        urgency: String(request.headers.urgency ?? '') || null,
        claims,
        payload,
      });
    }
    if (answer.delayMs) await new Promise((resolve) => setTimeout(resolve, answer.delayMs));
    response.writeHead(answer.status, answer.headers).end();
  };

  const server = createServer((request, response) => void handle(request, response));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  origin = `http://127.0.0.1:${port}`;
  return {
    host: `127.0.0.1:${port}`,
    origin,
    subscribe: (name) => {
      const browser = pushBrowser(`${origin}/push/${name}`);
      browsers.set(name, browser);
      return browser;
    },
    delivered,
    refused,
    received: () => received,
    maxConcurrent: () => maxOpen,
    answer: (next) => (answerOf = next),
    receivedCount: (count) =>
      received >= count ? Promise.resolve() : new Promise((resolve) => waiters.push({ count, resolve })),
    close: async () => {
      for (const response of held) response.destroy();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

/**
 * RFC 8292 §2–§3: `Authorization: vapid t=<JWT>, k=<public key>`, the JWT signed ES256 with the
 * key `k`, for `aud` = this service's origin, expiring after `nowMs` and within 24 h, naming a
 * `sub` (mailto: or https:). @returns its claims. @throws naming what is wrong.
 */
function checkVapid(authorization: string, origin: string, nowMs: number): PushDelivery['claims'] {
  const match = /^vapid t=([\w-]+\.[\w-]+\.[\w-]+), k=([\w-]+)$/.exec(authorization);
  if (!match) throw new Error('no vapid authorization');
  const [, jwt, k] = match;
  const [header, claims, signature] = jwt.split('.');
  if (JSON.parse(Buffer.from(header, 'base64url').toString()).alg !== 'ES256') throw new Error('not ES256');
  const point = Buffer.from(k, 'base64url');
  const key = createPublicKey({
    key: {
      kty: 'EC',
      crv: 'P-256',
      x: point.subarray(1, 33).toString('base64url'),
      y: point.subarray(33).toString('base64url'),
    },
    format: 'jwk',
  });
  const signed = verify(
    'sha256',
    Buffer.from(`${header}.${claims}`),
    { key, dsaEncoding: 'ieee-p1363' },
    Buffer.from(signature, 'base64url'),
  );
  if (!signed) throw new Error('bad signature');
  const body = JSON.parse(Buffer.from(claims, 'base64url').toString()) as PushDelivery['claims'];
  if (body.aud !== origin) throw new Error(`aud ${body.aud} is not ${origin}`);
  const nowSec = nowMs / 1000;
  if (!(body.exp > nowSec && body.exp <= nowSec + 24 * 3600)) throw new Error(`exp ${body.exp} out of range`);
  if (!/^(mailto:|https:)/.test(body.sub ?? '')) throw new Error('no sub');
  return body;
}

/** The tests' VAPID key pair (base64url) and contact: a fixed P-256 private key and its public key. */
export const TEST_VAPID = {
  privateKey: 'rJ3jwIj6t5v0Ai-PmFJ4BMVRhJTVWVHqSmpF5dRgwiI',
  publicKey: 'BM-rSl5flNtPuNjZOpwYLNMPLUp3vGoP6cyZ9xERDIYsPW4CYSc5VVnVJSMRfUnzgEQeY9vCgKSlc5Q9o_Z1-g8',
  subject: 'mailto:admin@bus.example.com',
};
