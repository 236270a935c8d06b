import { readBodyUpTo } from './http-body';

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

  it('refuses a body over the cap while streaming, without a declared length', async () => {
    expect(await readBodyUpTo(post(streamOf(5001)), 5000)).toBeNull();
  });

  it('refuses a body whose declared length is over the cap without reading it', async () => {
    let pulled = false;
    // highWaterMark 0: the stream is pulled only when someone reads it.
    const untouched = new ReadableStream<Uint8Array>(
      {
        pull() {
          pulled = true;
          throw new Error('read');
        },
      },
      { highWaterMark: 0 },
    );
    expect(await readBodyUpTo(post(untouched, { 'Content-Length': '101' }), 100)).toBeNull();
    expect(pulled).toBe(false);
  });
});
