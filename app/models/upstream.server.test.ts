import { z } from 'zod';
import {
  orNullOn404,
  UPSTREAM_TIMEOUT_MS,
  UpstreamError,
  upstreamJson,
  rethrowUnlessUpstream,
} from '~/models/upstream.server';

const inProcess = (fetch: (request: Request) => Promise<Response>) => ({
  api: { baseUrl: 'http://api.internal', fetch },
});

describe('upstreamJson', () => {
  it('uses the docs/product.md §7 timeout of 5000 ms', () => {
    expect(UPSTREAM_TIMEOUT_MS).toBe(5000);
  });

  it('times out an in-process api that never answers (its fetch ignores the abort signal)', async () => {
    const hanging = inProcess(() => new Promise<Response>(() => undefined));
    await expect(upstreamJson(hanging, '/api/bus/timeLeft', z.unknown(), { timeoutMs: 50 })).rejects.toThrow(
      UpstreamError,
    );
  });

  it('rejects an answer that breaks the contract, and a non-2xx status', async () => {
    const offContract = inProcess(async () => Response.json({ data: 'nope' }));
    await expect(upstreamJson(offContract, '/x', z.object({ data: z.array(z.string()) }))).rejects.toThrow(
      'answer does not match the contract',
    );
    const failing = inProcess(async () => new Response('no', { status: 503 }));
    await expect(upstreamJson(failing, '/x', z.unknown())).rejects.toMatchObject({ status: 503 });
  });

  it('declares the length of the JSON it sends, as over HTTP, so the api checks its body cap without reading it again', async () => {
    const lengths: (string | null)[] = [];
    const api = inProcess(async (request) => {
      lengths.push(request.headers.get('content-length'));
      return Response.json({});
    });
    await upstreamJson(api, '/x', z.unknown(), { method: 'POST', json: { name: '한국외대' } });
    await upstreamJson(api, '/x', z.unknown(), { method: 'POST', body: new TextEncoder().encode('{"a":1}') });
    expect(lengths).toEqual([String(new TextEncoder().encode('{"name":"한국외대"}').byteLength), '7']);
  });

  it('returns what `known` gives for a 2xx answer’s text unparsed, and parses the others, a refusal’s always', async () => {
    const schema = z.object({ n: z.number() }).transform(({ n }) => `parsed ${n}`);
    const known = (text: string) => (text === '{"n":1}' ? 'known 1' : undefined);
    const answering = (text: string, status = 200) => inProcess(async () => new Response(text, { status }));
    await expect(upstreamJson(answering('{"n":1}'), '/x', schema, { known })).resolves.toBe('known 1');
    await expect(upstreamJson(answering('{"n":2}'), '/x', schema, { known })).resolves.toBe('parsed 2');
    await expect(upstreamJson(answering('{"n":1}', 429), '/x', schema, { known })).rejects.toMatchObject({
      status: 429,
    });
  });
});

describe('orNullOn404', () => {
  it('answers what the call answers, null for a 404, and lets every other failure through', async () => {
    const answering = inProcess(async () => Response.json({ id: 1 }));
    await expect(orNullOn404(upstreamJson(answering, '/x', z.object({ id: z.number() })))).resolves.toEqual({ id: 1 });
    const missing = inProcess(async () => new Response('no', { status: 404 }));
    await expect(orNullOn404(upstreamJson(missing, '/x', z.unknown()))).resolves.toBeNull();
    const failing = inProcess(async () => new Response('no', { status: 500 }));
    await expect(orNullOn404(upstreamJson(failing, '/x', z.unknown()))).rejects.toMatchObject({ status: 500 });
    await expect(orNullOn404(Promise.reject(new Error('not upstream')))).rejects.toThrow('not upstream');
  });
});

describe('rethrowUnlessUpstream', () => {
  it('lets an UpstreamError through to the caller and throws anything else again, as it is', () => {
    const statusOf = (error: unknown) => {
      rethrowUnlessUpstream(error);
      return error.status;
    };
    const thrownBy = (error: unknown) => {
      try {
        return statusOf(error);
      } catch (thrown) {
        return thrown;
      }
    };
    expect(thrownBy(new UpstreamError('GET /x: HTTP 502', 502))).toBe(502);
    const bug = new TypeError('a bug');
    expect(thrownBy(bug)).toBe(bug);
    const answer = new Response(null, { status: 404 });
    expect(thrownBy(answer)).toBe(answer);
  });
});
