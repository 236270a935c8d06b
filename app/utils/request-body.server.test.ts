import { readBodyUpTo } from '~/utils/request-body.server';

const post = (body: BodyInit, headers: Record<string, string> = {}) =>
  new Request('http://web.test/api/kakao/skill', { method: 'POST', body, headers, duplex: 'half' } as RequestInit);

/** A streamed body of `size` bytes in chunks of 1,000, with no Content-Length. */
function streamOf(size: number): ReadableStream<Uint8Array> {
  let left = size;
  return new ReadableStream({
    pull(controller) {
      if (left <= 0) return controller.close();
      const chunk = new Uint8Array(Math.min(1000, left)).fill(65);
      left -= chunk.byteLength;
      controller.enqueue(chunk);
    },
  });
}

describe('readBodyUpTo', () => {
  it('returns the bytes of a body within the cap, the cap itself included', async () => {
    expect(new TextDecoder().decode((await readBodyUpTo(post('{"a":1}'), 100))!)).toBe('{"a":1}');
    expect((await readBodyUpTo(post(streamOf(5000)), 5000))!.byteLength).toBe(5000);
  });

  it('refuses a body over the cap, by its declared length or while streaming', async () => {
    expect(await readBodyUpTo(post('x'.repeat(101)), 100)).toBeNull();
    expect(await readBodyUpTo(post(streamOf(5001)), 5000)).toBeNull();
  });
});
