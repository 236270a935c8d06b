/**
 * The per-client limits as a client meets them through the api's public routes: keyed on the
 * address normalised (an IPv6 /64 as one address) with a wider limit on its network, IPv4 /24 or
 * IPv6 /48, of NETWORK_SHARE addresses' worth (lib/client-address.ts, ADR 027).
 */
import { PNG } from '../tests/fixtures/images';
import { testApi } from '../tests/setup/api';
import { testDatabaseFor, testDatabaseKinds } from '../tests/setup/db';
import { FakeClock } from '../tests/setup/fakes';
import { tempLocalStore } from '../tests/setup/storage';
import type { Api } from './app';
import { adCounts } from './ads/counters';
import { ads } from './db/schema';
import { NETWORK_SHARE } from './rate-limit';

/** GET /api/ads/status/{token}: 30 per address in 10 minutes (api/rate-limit.ts adStatus). */
const STATUS_LIMIT = 30;
/** A well-formed token no request carries: each look-up answers 404 while within the limit. */
const UNKNOWN_TOKEN = 'A'.repeat(43);

describe.each(testDatabaseKinds)('per-client limits on %s', (kind) => {
  const database = testDatabaseFor(kind);
  let store: ReturnType<typeof tempLocalStore>;
  let clock: FakeClock;
  let app: Api;

  beforeEach(() => {
    store = tempLocalStore();
    clock = new FakeClock(new Date('2026-11-23T10:00:00+09:00'));
    app = testApi({ db: database().db, storage: store, clock });
  });
  afterEach(() => store.remove());

  const lookUp = (ip: string) =>
    app.request(`/api/ads/status/${UNKNOWN_TOKEN}`, { headers: { 'X-Forwarded-For': ip } });
  const post = (path: string, body: unknown, ip: string) =>
    app.request(path, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'X-Forwarded-For': ip },
      body: JSON.stringify(body),
    });
  /** The statuses of look-ups from each of `ips` in turn. */
  const lookUps = async (ips: string[]) => {
    const statuses: number[] = [];
    for (const ip of ips) statuses.push((await lookUp(ip)).status);
    return statuses;
  };
  /** `n` answers 404 (within the limit), then the rest 429. */
  const limitedAfter = (n: number, total: number) => Array.from({ length: total }, (_, i) => (i < n ? 404 : 429));
  /** Address `i` of the /64 2001:db8:a:b::/64, each spelt differently from the last. */
  const inOne64 = (i: number) => `2001:db8:a:b:${i.toString(16)}:${((i * 7919) % 0x10000).toString(16)}::${i + 1}`;

  it('limits status look-ups from 40 addresses of one IPv6 /64 like one address', async () => {
    const ips = Array.from({ length: 40 }, (_, i) => inOne64(i));
    expect(new Set(ips).size).toBe(40);
    expect(await lookUps(ips)).toEqual(limitedAfter(STATUS_LIMIT, 40));
    // The next /64 has its own budget.
    expect((await lookUp('2001:db8:a:c::1')).status).toBe(404);
  });

  it('limits one address spelt three ways like one address, IPv4 and IPv6', async () => {
    const ipv4 = ['203.0.113.1', '::ffff:203.0.113.1', '::FFFF:CB00:7101'];
    const ipv6 = ['2001:db8::1', '2001:DB8:0:0::1', '2001:0db8:0000:0000:0000:0000:0000:0001'];
    for (const spellings of [ipv4, ipv6]) {
      const ips = Array.from({ length: STATUS_LIMIT + 6 }, (_, i) => spellings[i % 3]);
      expect(await lookUps(ips)).toEqual(limitedAfter(STATUS_LIMIT, ips.length));
    }
  });

  it(`limits neighbouring IPv4 addresses together past ${NETWORK_SHARE} addresses' worth of their /24`, async () => {
    const network = STATUS_LIMIT * NETWORK_SHARE;
    const ips = Array.from({ length: network + 10 }, (_, i) => `198.51.100.${1 + (i % 42)}`);
    expect(await lookUps(ips)).toEqual(limitedAfter(network, ips.length));
    // A fresh address of that /24 waits too; another /24 does not.
    expect((await lookUp('198.51.100.200')).status).toBe(429);
    expect((await lookUp('198.51.101.1')).status).toBe(404);
  });

  it(`limits the /64s of one IPv6 /48 together past ${NETWORK_SHARE} addresses' worth`, async () => {
    const network = STATUS_LIMIT * NETWORK_SHARE;
    const ips = Array.from({ length: network + 10 }, (_, i) => `2001:db8:5:${(i % 50).toString(16)}::${i}`);
    expect(await lookUps(ips)).toEqual(limitedAfter(network, ips.length));
    expect((await lookUp('2001:db8:6::1')).status).toBe(404);
  });

  it('leaves its neighbours their budget when one address goes on past its own limit', async () => {
    const loud = Array.from({ length: 5 * STATUS_LIMIT }, () => '192.0.2.1');
    expect(await lookUps(loud)).toEqual(limitedAfter(STATUS_LIMIT, loud.length));
    const neighbours = Array.from(
      { length: (NETWORK_SHARE - 1) * STATUS_LIMIT },
      (_, i) => `192.0.2.${2 + (i % (NETWORK_SHARE - 1))}`,
    );
    expect(await lookUps(neighbours)).toEqual(limitedAfter(neighbours.length, neighbours.length));
  });

  it('limits every value that is not an IP address as one shared unknown client', async () => {
    const garbage = ['not-an-ip', '', 'evil.example', '203.000.113.001', '1.2.3', '<script>', 'unknown'];
    const ips = Array.from({ length: STATUS_LIMIT + 5 }, (_, i) => garbage[i % garbage.length]);
    expect(await lookUps(ips)).toEqual(limitedAfter(STATUS_LIMIT, ips.length));
    // A real address is not held by them.
    expect((await lookUp('192.0.2.77')).status).toBe(404);
  });

  it.each([
    ['inquiries', 5, (ip: string) => post('/api/inquiries', { content: '문의합니다' }, ip), 201],
    [
      'presigns',
      12,
      (ip: string) => post('/api/s3/presigned-url/image', { type: 'web', byteSize: PNG.byteLength }, ip),
      200,
    ],
  ] as const)('limits %s from one /64 like one address', async (_, limit, send, ok) => {
    const statuses: number[] = [];
    for (let i = 0; i < limit + 3; i += 1) statuses.push((await send(inOne64(i))).status);
    expect(statuses).toEqual(Array.from({ length: limit + 3 }, (_, i) => (i < limit ? ok : 429)));
  });

  it('limits impressions and counted clicks from one /64 like one address, whatever the User-Agent', async () => {
    const now = clock.now();
    const [{ id }] = await database()
      .db.insert(ads)
      .values({
        type: 'web',
        title: 'Cafe',
        redirectUrl: 'https://cafe.example.com/',
        position: 0,
        startsAt: new Date(now.getTime() - 86_400_000),
        endsAt: new Date(now.getTime() + 86_400_000),
        createdAt: now,
        updatedAt: now,
      })
      .returning({ id: ads.id });
    const from = (i: number) => ({
      method: 'POST',
      headers: { 'X-Forwarded-For': inOne64(i), 'User-Agent': `bot/${i}` },
    });
    const impressions: number[] = [];
    for (let i = 0; i < 62; i += 1) impressions.push((await app.request(`/api/ads/${id}/impressions`, from(i))).status);
    expect(impressions).toEqual(Array.from({ length: 62 }, (_, i) => (i < 60 ? 204 : 429)));
    for (let i = 0; i < 35; i += 1) expect((await app.request(`/api/ads/${id}/clicks`, from(i))).status).toBe(200);
    expect(await adCounts(database().db, id)).toEqual([{ day: '2026-11-23', impressions: 60, clicks: 30 }]);
  });
});
