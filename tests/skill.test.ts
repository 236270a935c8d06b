/**
 * The chatbot skill on the built web (build/server.js, its api in-process), served ahead of express
 * (ADR 024) with every rule the general path gives a write: the security headers, the body cap
 * (413 in JSON, declared or counted), the cross-site refusal, 405 to other methods, JSON never
 * stored; and the bound counted at admission, so requests whose bodies are still coming take their
 * places and the next one gets the busy answer at once. Needs `npm run build` (npm test builds first).
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SKILL_BUSY_RESPONSE, SKILL_BUSY_TEXT, SKILL_SECRET_HEADER, SkillResponseSchema } from '../contract/skill';
import { CROSS_SITE_MESSAGE } from '../app/utils/csrf.server';
import { SKILL_REQUESTS_MAX } from '../app/server/skill.server';
import { freePort, runEntry, type EntryProcess } from './setup/process';
import { securityHeaderNames } from './setup/security-headers';

const SECRET = 's'.repeat(40);
const example = readFileSync(new URL('./fixtures/skill/request.json', import.meta.url), 'utf8');

let web: EntryProcess;
let dataDir: string;
let port: number;
let base: string;

/** A POST of `body` to the skill with the right secret (`headers` over it). */
const post = (body: BodyInit = example, headers: Record<string, string> = {}, path = '/api/kakao/skill') =>
  fetch(`${base}${path}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', [SKILL_SECRET_HEADER]: SECRET, ...headers },
    body,
    ...(body instanceof ReadableStream ? { duplex: 'half' } : {}),
  } as RequestInit);

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'campus-bus-skill-'));
  port = await freePort();
  base = `http://localhost:${port}`;
  web = runEntry('build/server.js', {
    PORT: String(port),
    DATA_DIR: dataDir,
    CLOCK_START: '2026-11-23T08:00:00+09:00',
    KAKAO_SKILL_SECRET: SECRET,
  });
  await web.waitFor(/\[web\] .*listening/);
  // Held until the database is open (ADR 025), then answered.
  expect((await post()).status).toBe(200);
  // The start-up's own work (the demo history, then the day's accuracy figure) holds the event loop
  // for long stretches, connections waiting to be accepted meanwhile: done before the bound is tried.
  await web.waitFor(/\[accuracy\] today's prediction accuracy computed/, 120_000);
}, 180_000);

afterAll(() => {
  if (web?.child.exitCode === null) web.child.kill('SIGKILL');
  rmSync(dataDir, { recursive: true, force: true });
});

describe('POST /api/kakao/skill on the built web', () => {
  it('answers a v2.0 answer in JSON, never stored, with the security headers and without express', async () => {
    const skill = await post(example, { 'Accept-Encoding': 'gzip' });
    expect(skill.status).toBe(200);
    expect(skill.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(skill.headers.get('cache-control')).toBe('no-store');
    expect(SkillResponseSchema.parse(await skill.json()).version).toBe('2.0');
    const general = (await fetch(`${base}/healthz`, { headers: { 'Accept-Encoding': 'gzip' } })).headers;
    const security = securityHeaderNames(general);
    // Each answer its own id (docs/deploy.md §Logs).
    expect(skill.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    expect(skill.headers.get('x-request-id')).not.toBe(general.get('x-request-id'));
    expect(security.length).toBeGreaterThanOrEqual(10);
    for (const name of security) expect(skill.headers.get(name), name).toBe(general.get(name));
    expect(skill.headers.get('x-powered-by')).toBeNull();
    // Express's compression puts Vary: Accept-Encoding on every JSON answer it passes; the skill's never went through it.
    expect(general.get('vary')).toBe('Accept-Encoding');
    expect(skill.headers.get('vary')).toBeNull();
  });

  it('answers its path with a trailing slash or a query like the path itself', async () => {
    for (const path of ['/api/kakao/skill/', '/api/kakao/skill?x=1', '/api/kakao/skill/?x=1']) {
      const response = await post(example, {}, path);
      expect(response.status, path).toBe(200);
      expect(SkillResponseSchema.safeParse(await response.json()).success, path).toBe(true);
    }
  });

  it('refuses a body over 64 KB with 413 in JSON, by its declared length or as it streams', async () => {
    const over = JSON.stringify({ pad: 'x'.repeat(70_000) });
    const streamed = new ReadableStream<Uint8Array>({
      start(controller) {
        for (let i = 0; i < 10; i += 1) controller.enqueue(new TextEncoder().encode('x'.repeat(8_000)));
        controller.close();
      },
    });
    for (const [name, body] of [
      ['declared', over],
      ['streamed', streamed],
    ] as const) {
      const response = await post(body);
      expect(response.status, name).toBe(413);
      expect(response.headers.get('content-type'), name).toBe('application/json; charset=utf-8');
      expect(response.headers.get('cache-control'), name).toBe('no-store');
      expect(await response.json(), name).toEqual({ message: 'Request body over 65536 bytes' });
    }
  });

  it('answers a wrong secret 401, refuses a write from another site, and answers 405 to other methods', async () => {
    const wrong = await post(example, { [SKILL_SECRET_HEADER]: `${SECRET}x` });
    expect(wrong.status).toBe(401);
    expect(wrong.headers.get('cache-control')).toBe('no-store');
    expect(Object.keys(await wrong.json())).toEqual(['message']);

    const crossSite = await post(example, { Origin: 'https://evil.example' });
    expect(crossSite.status).toBe(403);
    expect(await crossSite.text()).toBe(CROSS_SITE_MESSAGE);
    expect((await post(example, { Origin: base })).status).toBe(200);

    for (const method of ['GET', 'HEAD', 'PUT']) {
      const response = await fetch(`${base}/api/kakao/skill`, { method });
      expect(response.status, method).toBe(405);
      expect(response.headers.get('allow'), method).toBe('POST');
      expect(response.headers.get('content-type'), method).toBe('application/json; charset=utf-8');
      if (method !== 'HEAD') expect(await response.json(), method).toEqual({ message: 'Method not allowed' });
    }
  });

  it('counts a request from its headers: with SKILL_REQUESTS_MAX bodies still coming, the next gets the busy answer', async () => {
    const head =
      `POST /api/kakao/skill HTTP/1.1\r\nHost: localhost:${port}\r\nContent-Type: application/json\r\n` +
      `${SKILL_SECRET_HEADER}: ${SECRET}\r\nContent-Length: ${Buffer.byteLength(example)}\r\n\r\n`;
    /** A connection that has sent the head of a request, its body held back, and its answer once whole. */
    const holdOne = () =>
      new Promise<{ socket: Socket; answer: Promise<string> }>((connected, failed) => {
        const socket = connect(port, '127.0.0.1');
        const answer = new Promise<string>((resolve) => {
          let bytes = Buffer.alloc(0);
          // The answer is whole once its Content-Length of body bytes has come.
          socket.on('data', (chunk: Buffer) => {
            bytes = Buffer.concat([bytes, chunk]);
            const end = bytes.indexOf('\r\n\r\n');
            const length = Number(/content-length: (\d+)/i.exec(bytes.subarray(0, end).toString())?.[1]);
            if (end >= 0 && bytes.length >= end + 4 + length) resolve(bytes.toString());
          });
          socket.on('close', () => resolve(bytes.toString()));
        });
        // (After the connection, an error is the answer's end: the socket closes.)
        socket.on('error', failed);
        socket.once('connect', () => socket.write(head, () => connected({ socket, answer })));
      });
    // In rounds, so that the server's queue of connections to accept (its listen backlog) never overflows.
    const held: { socket: Socket; answer: Promise<string> }[] = [];
    try {
      while (held.length < SKILL_REQUESTS_MAX) {
        held.push(...(await Promise.all(Array.from({ length: 64 }, holdOne))));
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      // Once every head has been read, the next request is answered busy, its body unread. (On a
      // loaded machine the server may take tens of seconds to accept and read 1,024 heads: a CI run
      // with three vitest workers once needed more than 20.)
      await vi.waitFor(
        async () => {
          const busy = await post();
          expect(busy.status).toBe(200);
          expect(await busy.json()).toEqual(SKILL_BUSY_RESPONSE);
        },
        { timeout: 50_000, interval: 50 },
      );
      // Their bodies come: each is answered, not busy.
      for (const { socket } of held) socket.write(example);
      for (const text of await Promise.all(held.map(({ answer }) => answer))) {
        expect(text).toMatch(/^HTTP\/1\.1 200 /);
        expect(text).not.toContain(SKILL_BUSY_TEXT);
      }
      // Then the places are free again.
      expect(await (await post()).text()).not.toContain(SKILL_BUSY_TEXT);
    } finally {
      for (const { socket } of held) socket.destroy();
    }
  }, 120_000);
});
