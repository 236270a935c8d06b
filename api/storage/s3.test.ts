/**
 * The S3 store against a real S3 emulator (s3rver, on a random port and a fresh temp directory):
 * no mocked SDK.
 *
 * s3rver checks a presigned URL's expiry but NOT its SigV4 signature ("Signature version 4
 * calculation is unimplemented", s3rver 3.7 lib/middleware/authentication.js), so on its own it
 * would store a body of any size or type. The tests therefore put a small SigV4 gate in front of
 * it, written from the AWS spec independently of the SDK: it recomputes the signature of every
 * presigned request from the headers actually sent and answers 403 SignatureDoesNotMatch when it
 * differs, as S3 does, before forwarding to s3rver. Expiry is left to s3rver.
 */
import { createHash, createHmac } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, request, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
// @ts-expect-error s3rver ships no type declarations.
import S3rverModule from 's3rver';
import { eq } from 'drizzle-orm';
import { createTestDatabase } from '../../tests/setup/db';
import { confirmStoredImage, issueImageUpload } from '../ads/images';
import type { Database } from '../db/client';
import { imageUploads } from '../db/schema';
import type { PutGrant } from './types';
import { createS3Store, type S3StoreOptions } from './s3';

type S3rverInstance = { run(): Promise<AddressInfo>; close(): Promise<void> };
const S3rver = S3rverModule as new (options: {
  address: string;
  port: number;
  silent: boolean;
  directory: string;
  configureBuckets: { name: string }[];
}) => S3rverInstance;

const BUCKET = 'campus-bus-test';
const ACCESS_KEY = 'S3RVER';
const SECRET_KEY = 'S3RVER';

/** A real 1×1 PNG (69 bytes): 89 50 4E 47 0D 0A 1A 0A, IHDR, IDAT, IEND. */
const PNG = Uint8Array.from(
  Buffer.from(
    'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
    'base64',
  ),
);
/** A GIF header and then some: a second image of another size. */
const GIF = Uint8Array.from(Buffer.from('GIF89a\x01\x00\x01\x00\x80\x00\x00\xff\xff\xff\x00\x00\x00;', 'latin1'));

let tempDir: string;
let s3rver: S3rverInstance;
let gate: Server;
let endpoint: string;

beforeAll(async () => {
  tempDir = mkdtempSync(join(tmpdir(), 'campus-bus-s3-'));
  s3rver = new S3rver({
    address: '127.0.0.1',
    port: 0,
    silent: true,
    directory: tempDir,
    configureBuckets: [{ name: BUCKET }],
  });
  const { port: s3rverPort } = await s3rver.run();
  gate = createServer((req, res) => {
    if (!presignedSignatureHolds(req)) {
      res.writeHead(403, { 'Content-Type': 'application/xml' });
      res.end('<Error><Code>SignatureDoesNotMatch</Code></Error>');
      return;
    }
    // NOTE: agent false: a fresh connection per request, so no kept-alive socket to s3rver can go
    // stale in the same way (see keepAliveTimeout below).
    const upstream = request(
      { host: '127.0.0.1', port: s3rverPort, method: req.method, path: req.url, headers: req.headers, agent: false },
      (upstreamRes) => {
        res.writeHead(upstreamRes.statusCode ?? 502, upstreamRes.headers);
        upstreamRes.pipe(res);
      },
    );
    upstream.on('error', (error) => res.destroy(error));
    req.pipe(upstream);
  });
  // NOTE: starting PGlite can block this process's event loop for seconds, after which both ends' idle
  // timers are overdue: with the default 5 s the gate could close a kept-alive socket just as fetch
  // reuses it (ECONNRESET). With a long one here, only fetch's own (shorter) idle timeout applies.
  gate.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => gate.listen(0, '127.0.0.1', resolve));
  endpoint = `http://127.0.0.1:${(gate.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise<void>((resolve) => (gate ? gate.close(() => resolve()) : resolve()));
  await s3rver?.close();
  if (tempDir) rmSync(tempDir, { recursive: true, force: true });
});

function store(overrides: Partial<S3StoreOptions> = {}) {
  return createS3Store({
    bucket: BUCKET,
    region: 'us-east-1',
    endpoint,
    forcePathStyle: true,
    credentials: { accessKeyId: ACCESS_KEY, secretAccessKey: SECRET_KEY },
    ...overrides,
  });
}

let keySeq = 0;
function grantFor(bytes: Uint8Array, contentType: string, secondsAhead = 300): PutGrant {
  keySeq += 1;
  return {
    key: `ad-${keySeq}-${Date.now()}.${contentType === 'image/gif' ? 'gif' : 'png'}`,
    contentType,
    byteSize: bytes.byteLength,
    expiresAt: new Date(Date.now() + secondsAhead * 1000),
  };
}

/** What a phone does with the URL: a plain fetch with only Content-Type and Content-Length. */
function upload(url: string, body: Uint8Array<ArrayBuffer>, contentType: string) {
  return fetch(url, {
    method: 'PUT',
    body,
    headers: { 'Content-Type': contentType, 'Content-Length': String(body.byteLength) },
  });
}

async function readAll(stream: Readable): Promise<Uint8Array> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.from(chunk as Uint8Array));
  return Uint8Array.from(Buffer.concat(chunks));
}

describe('createS3Store', () => {
  it('presigns a PUT that a plain fetch uploads; head, readStart, get and delete see it', async () => {
    const s3 = store();
    const grant = grantFor(PNG, 'image/png');
    const url = await s3.presignPut(grant);
    expect(url.startsWith(`${endpoint}/${BUCKET}/${grant.key}?`)).toBe(true);

    const response = await upload(url, PNG, 'image/png');
    expect(response.status, await response.text()).toBe(200);

    expect(await s3.head(grant.key)).toEqual({ byteSize: PNG.byteLength, contentType: 'image/png' });
    expect(Array.from((await s3.readStart(grant.key, 4))!)).toEqual([0x89, 0x50, 0x4e, 0x47]);
    expect(Array.from((await s3.readStart(grant.key, 1000))!)).toEqual(Array.from(PNG));

    const object = await s3.get(grant.key);
    expect(object).not.toBeNull();
    expect(object!.byteSize).toBe(PNG.byteLength);
    expect(object!.contentType).toBe('image/png');
    expect(Array.from(await readAll(object!.body))).toEqual(Array.from(PNG));

    await s3.delete(grant.key);
    expect(await s3.head(grant.key)).toBeNull();
    await expect(s3.delete(grant.key)).resolves.toBeUndefined();
  });

  it('signs host, content-length and content-type, and adds no flexible-checksum parameters', async () => {
    const url = new URL(await store().presignPut(grantFor(PNG, 'image/png')));
    expect(url.searchParams.get('X-Amz-SignedHeaders')).toBe('content-length;content-type;host');
    const names = [...url.searchParams.keys()].map((name) => name.toLowerCase());
    expect(names.filter((name) => name.startsWith('x-amz-checksum') || name.startsWith('x-amz-sdk-checksum'))).toEqual(
      [],
    );
  });

  it('refuses a PUT of another size than granted and stores nothing', async () => {
    const s3 = store();
    const grant = grantFor(PNG, 'image/png');
    const url = await s3.presignPut(grant);
    const bigger = Uint8Array.from([...PNG, 0, 0, 0, 0]);

    const response = await upload(url, bigger, 'image/png');
    expect(response.ok).toBe(false);
    expect(response.status).toBe(403);
    expect(await s3.head(grant.key)).toBeNull();
  });

  it('refuses a PUT of another Content-Type than granted and stores nothing', async () => {
    const s3 = store();
    const grant = grantFor(PNG, 'image/png');
    const url = await s3.presignPut(grant);

    const response = await upload(url, PNG, 'image/jpeg');
    expect(response.ok).toBe(false);
    expect(response.status).toBe(403);
    expect(await s3.head(grant.key)).toBeNull();
  });

  it('refuses an expired URL (s3rver checks X-Amz-Date + X-Amz-Expires)', async () => {
    // Signed a minute ago for 1 s: expired 59 s ago, with no sleeping.
    const s3 = store({ now: () => new Date(Date.now() - 60_000) });
    const grant = { ...grantFor(PNG, 'image/png'), expiresAt: new Date(Date.now() - 59_000) };
    const url = await s3.presignPut(grant);
    expect(new URL(url).searchParams.get('X-Amz-Expires')).toBe('1');

    const response = await upload(url, PNG, 'image/png');
    expect(response.status).toBe(403);
    expect(await response.text()).toContain('Request has expired');
    expect(await s3.head(grant.key)).toBeNull();
  });

  it('signs for the whole seconds until expiresAt, at least 1', async () => {
    const signedAt = new Date('2026-03-02T09:00:00.000Z');
    const s3 = store({ now: () => signedAt });
    const expiresParam = async (msAhead: number) =>
      new URL(
        await s3.presignPut({ ...grantFor(PNG, 'image/png'), expiresAt: new Date(signedAt.getTime() + msAhead) }),
      ).searchParams.get('X-Amz-Expires');
    expect(await expiresParam(300_900)).toBe('300');
    expect(await expiresParam(200)).toBe('1');
    expect(await expiresParam(-5_000)).toBe('1');
  });

  it('put stores bytes that get and readStart read back; a missing key reads as null', async () => {
    const s3 = store();
    const key = grantFor(GIF, 'image/gif').key;
    await s3.put(key, GIF, 'image/gif');
    expect(await s3.head(key)).toEqual({ byteSize: GIF.byteLength, contentType: 'image/gif' });
    expect(Buffer.from((await s3.readStart(key, 6))!).toString('latin1')).toBe('GIF89a');
    expect(Array.from(await readAll((await s3.get(key))!.body))).toEqual(Array.from(GIF));
    await s3.delete(key);

    expect(await s3.head('ad-missing.png')).toBeNull();
    expect(await s3.readStart('ad-missing.png', 4)).toBeNull();
    expect(await s3.get('ad-missing.png')).toBeNull();
  });

  it('propagates errors other than "not found"', async () => {
    const s3 = store({ bucket: 'no-such-bucket' });
    await expect(s3.put('ad-x.png', PNG, 'image/png')).rejects.toMatchObject({ name: 'NoSuchBucket' });
    await expect(s3.get('ad-x.png')).rejects.toMatchObject({ name: 'NoSuchBucket' });
    await expect(s3.readStart('ad-x.png', 4)).rejects.toMatchObject({ name: 'NoSuchBucket' });
  });

  it('builds public URLs from publicBaseUrl, else the web proxy path', () => {
    expect(store({ publicBaseUrl: 'https://cdn.example.com/ads/' }).publicUrl('ad-1.png')).toBe(
      'https://cdn.example.com/ads/ad-1.png',
    );
    expect(store({ publicBaseUrl: 'https://cdn.example.com' }).publicUrl('ad-1.png')).toBe(
      'https://cdn.example.com/ad-1.png',
    );
    expect(store().publicUrl('ad-1.png')).toBe('/images/ad-1.png');
  });

  it('never verifies api upload URLs', () => {
    expect(store().verifyPutUrl('ad-1.png', new URLSearchParams('sig=x'), new Date())).toBeNull();
  });
});

describe('an upload that went straight to S3 (api/ads/images.ts confirmStoredImage)', () => {
  // NOTE: s3rver checks the URL's expiry against the real clock, so the upload is issued now: issued
  // at a fixed past instant, its URL would be signed for the 1-second minimum and fail under load.
  const now = new Date();
  const issueAndPut = async (database: Database, bytes: Uint8Array<ArrayBuffer>) => {
    const issued = await issueImageUpload(
      database.db,
      store(),
      { type: 'web', extension: 'png', byteSize: bytes.byteLength },
      now,
    );
    expect((await upload(issued.presignedUrl, bytes, 'image/png')).status).toBe(200);
    return { ...issued, key: issued.imageUrl.slice('/images/'.length) };
  };

  it('is sniffed when an application first uses it: a real image is kept and marked stored', async () => {
    const database = await createTestDatabase('pglite');
    onTestFinished(() => database.close());
    const { imageUrl, key } = await issueAndPut(database, PNG.slice());
    expect(await confirmStoredImage(database.db, store(), imageUrl, 'web')).toBe('stored');
    const [row] = await database.db.select().from(imageUploads).where(eq(imageUploads.key, key));
    expect(row.status).toBe('stored');
    expect(await store().head(key)).not.toBeNull();
    expect(await confirmStoredImage(database.db, store(), imageUrl, 'kakao')).toBe('unknown'); // issued for web
  });

  it('is deleted, object and record, when its bytes are not the declared image type', async () => {
    const database = await createTestDatabase('pglite');
    onTestFinished(() => database.close());
    const text = new TextEncoder().encode('<svg xmlns="http://www.w3.org/2000/svg"/> not a png at all');
    const { imageUrl, key } = await issueAndPut(database, text.slice());
    expect(await store().head(key)).not.toBeNull(); // S3 took it: signed size and type were kept
    expect(await confirmStoredImage(database.db, store(), imageUrl, 'web')).toBe('not-an-image');
    expect(await store().head(key)).toBeNull();
    expect(await database.db.select().from(imageUploads).where(eq(imageUploads.key, key))).toEqual([]);
  });
});

/**
 * Whether a request carrying a SigV4 presigned query (X-Amz-Algorithm) has the signature S3 would
 * compute from the method, path, query and the signed headers as actually sent. Requests without
 * one (the SDK's own, signed in the Authorization header) pass.
 * https://docs.aws.amazon.com/AmazonS3/latest/API/sigv4-query-string-auth.html
 */
function presignedSignatureHolds(req: IncomingMessage): boolean {
  const url = new URL(req.url ?? '/', 'http://gate');
  if (!url.searchParams.has('X-Amz-Algorithm')) return true;
  const params = url.searchParams;
  const signedHeaders = params.get('X-Amz-SignedHeaders') ?? '';
  const amzDate = params.get('X-Amz-Date') ?? '';
  const [accessKey, ...scopeParts] = (params.get('X-Amz-Credential') ?? '').split('/');
  if (accessKey !== ACCESS_KEY || scopeParts.length !== 4) return false;
  const [date, region, service] = scopeParts;

  const encode = (value: string) =>
    encodeURIComponent(value).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  const canonicalQuery = [...params]
    .filter(([name]) => name !== 'X-Amz-Signature')
    .map(([name, value]) => [encode(name), encode(value)])
    .sort(([a, av], [b, bv]) => (a < b ? -1 : a > b ? 1 : av < bv ? -1 : av > bv ? 1 : 0))
    .map(([name, value]) => `${name}=${value}`)
    .join('&');
  let canonicalHeaders = '';
  for (const name of signedHeaders.split(';')) {
    const value = req.headers[name];
    if (value === undefined) return false;
    canonicalHeaders += `${name}:${String(value).trim().replace(/\s+/g, ' ')}\n`;
  }
  const canonicalRequest = [
    req.method,
    url.pathname,
    canonicalQuery,
    canonicalHeaders,
    signedHeaders,
    params.get('X-Amz-Content-Sha256') ?? 'UNSIGNED-PAYLOAD',
  ].join('\n');
  const stringToSign = [
    'AWS4-HMAC-SHA256',
    amzDate,
    scopeParts.join('/'),
    createHash('sha256').update(canonicalRequest).digest('hex'),
  ].join('\n');
  const hmac = (key: string | Buffer, data: string) => createHmac('sha256', key).update(data).digest();
  const signingKey = hmac(hmac(hmac(hmac(`AWS4${SECRET_KEY}`, date), region), service), 'aws4_request');
  return createHmac('sha256', signingKey).update(stringToSign).digest('hex') === params.get('X-Amz-Signature');
}
