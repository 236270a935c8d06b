/**
 * Every way a GbisSource poll fails (a portal error, HTTP, an unreadable or oversized body, a timeout,
 * an abort, no key or ids), never with the key in the message; and the standalone stub over real HTTP.
 */
import { delay, http, passthrough } from 'msw';
import {
  arrivalListBody,
  liveAnswer,
  MOCK_IDS,
  mockIds,
  portalErrorBody,
  type GbisAnswer,
} from '../../../../tests/mocks/gbis';
import { startGbisStub } from '../../../../tests/mocks/gbis-stub';
import { gbisSourceFor, KEY, NOW, pollError, R1303, readAll } from '../../../../tests/setup/gbis-source';
import type { FeedErrorKind } from '../snapshot';
import { IDS_UNKNOWN_MESSAGE } from '../transit-config';
import { GBIS_MAX_BODY_BYTES } from './http';

const { mock, server, source } = gbisSourceFor();

describe('GbisSource', () => {
  it.each<[string, GbisAnswer, FeedErrorKind, string]>([
    [
      'a quota portal error (22, XML, HTTP 200)',
      () => ({ status: 200, body: portalErrorBody('22') }),
      'portal',
      'getBusArrivalListv2: portal error 22 LIMITED_NUMBER_OF_SERVICE_REQUESTS_EXCEEDS_ERROR',
    ],
    ['HTTP 500', () => ({ status: 500, body: 'Internal Server Error' }), 'http', 'HTTP 500'],
    ['an HTML error page', () => ({ status: 200, body: '<html><body>Bad Gateway' }), 'body', 'unreadable XML'],
    [
      'a body over 2 MB',
      () => ({ status: 200, body: arrivalListBody([{ pad: 'x'.repeat(GBIS_MAX_BODY_BYTES) }]) }),
      'body',
      'getBusArrivalListv2: answer longer than 2 MB',
    ],
  ])('%s fails the poll', async (_name, reply, kind, message) => {
    mock.answerWith(reply);
    const error = await pollError(source());
    expect(error.kind).toBe(kind);
    expect(error.message).toContain(message);
  });

  it('one failing location call fails the poll', async () => {
    const live = liveAnswer(() => NOW);
    mock.answerWith((call) => (call.params.routeId === R1303.routeId ? { status: 502, body: '' } : live(call)));
    const error = await pollError(source());
    expect(error).toMatchObject({ kind: 'http', message: 'getBusLocationListv2: HTTP 502' });
  });

  it('a hanging answer times out', async () => {
    mock.answerWith(async () => {
      await delay('infinite');
      return { status: 200, body: '' };
    });
    const started = Date.now();
    const error = await pollError(source({ timeoutMs: 50 }));
    expect(error.kind).toBe('timeout');
    expect(error.message).toContain('no answer within 50 ms');
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it("the caller's abort ends the poll as a timeout", async () => {
    mock.answerWith(async () => {
      await delay('infinite');
      return { status: 200, body: '' };
    });
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 20);
    const error = await pollError(source(), controller.signal);
    expect(error).toMatchObject({ kind: 'timeout', message: expect.stringContaining('aborted by the caller') });
  });

  it('never puts the service key in an error message', async () => {
    const leaky = source({
      fetch: async (input) => {
        throw new TypeError(`fetch failed for ${String(input)}`);
      },
    });
    const error = await pollError(leaky);
    expect(error.kind).toBe('http');
    expect(error.message).toContain('serviceKey=<serviceKey>');
    expect(error.message).not.toContain(KEY);
    expect(error.message).not.toContain(encodeURIComponent(KEY));
  });

  it('refuses to start without a key, and to poll (no call) without an arrival stationId', async () => {
    expect(() => source({ serviceKey: ' ' })).toThrow(expect.objectContaining({ kind: 'config' }));
    const unknown = source({ ids: mockIds({ upStops: MOCK_IDS.upStops.map((stop) => ({ ...stop, stationId: '' })) }) });
    await expect(unknown.prepare()).rejects.toMatchObject({ kind: 'config', message: IDS_UNKNOWN_MESSAGE });
    expect((await pollError(unknown)).kind).toBe('config');
    expect(mock.calls()).toEqual([]);
  });
});

describe('GbisSource against the standalone stub (real HTTP)', () => {
  it('polls live-looking data in ok mode and gets the portal quota error in quota mode', async () => {
    const stub = await startGbisStub();
    server.use(http.get(`${stub.url}/*`, () => passthrough()));
    try {
      const gbis = source({ baseUrl: stub.url });
      const snapshot = await readAll(gbis, new Date());
      expect(stub.counts()).toEqual({ arrivals: 1, locations: gbis.locatedRoutes.length });
      expect(snapshot.arrivals).toHaveLength(8);
      expect(new Set(snapshot.arrivals.map((a) => a.routeNo))).toEqual(new Set(['1150', '1117', '1303', '1005']));
      expect(snapshot.arrivals.every((a) => a.predictTimeSec > 0)).toBe(true);
      expect(snapshot.vehicles.length).toBeGreaterThan(0);

      stub.setMode('quota');
      const error = await pollError(gbis);
      expect(error).toMatchObject({ kind: 'portal', message: expect.stringContaining('portal error 22') });
    } finally {
      await stub.close();
    }
  });
});
