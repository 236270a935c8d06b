import { BodyStopped, readBodyUpTo } from './http-body';

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

  describe('watched', () => {
    beforeEach(() => vi.useFakeTimers());
    afterEach(() => vi.useRealTimers());

    /** A body whose chunks the test sends; it never ends on its own. */
    function trickle() {
      let controller!: ReadableStreamDefaultController<Uint8Array>;
      const stream = new ReadableStream<Uint8Array>({ start: (c) => void (controller = c) });
      return {
        stream,
        send: (bytes: number) => controller.enqueue(new Uint8Array(bytes)),
        end: () => controller.close(),
      };
    }

    it('stops a body that sends nothing for idleMs, however long it has been sending', async () => {
      const body = trickle();
      const reading = readBodyUpTo(post(body.stream), 1000, { idleMs: 10_000 });
      const stopped = expect(reading).rejects.toEqual(new BodyStopped('idle'));
      for (let i = 0; i < 5; i += 1) {
        await vi.advanceTimersByTimeAsync(9_000);
        body.send(1);
      }
      await vi.advanceTimersByTimeAsync(10_000);
      await stopped;
    });

    it('takes a body that keeps sending within idleMs, and stops one not whole by deadlineMs', async () => {
      const steady = trickle();
      const read = readBodyUpTo(post(steady.stream), 1000, { idleMs: 10_000 });
      await vi.advanceTimersByTimeAsync(9_000);
      steady.send(3);
      steady.end();
      expect((await read)!.byteLength).toBe(3);

      const slow = trickle();
      const late = readBodyUpTo(post(slow.stream), 1000, { idleMs: 10_000, deadlineMs: 5_000 });
      const stopped = expect(late).rejects.toEqual(new BodyStopped('late'));
      for (let i = 0; i < 4; i += 1) {
        slow.send(1);
        await vi.advanceTimersByTimeAsync(1_000);
      }
      await vi.advanceTimersByTimeAsync(1_000);
      await stopped;
    });

    it('stops a body that comes in more than maxChunks chunks, and takes one in maxChunks', async () => {
      // streamOf: chunks of 1,000 bytes.
      expect((await readBodyUpTo(post(streamOf(5000)), 10_000, { maxChunks: 5 }))!.byteLength).toBe(5000);
      await expect(readBodyUpTo(post(streamOf(5001)), 10_000, { maxChunks: 5 })).rejects.toMatchObject({
        reason: 'fragmented',
      });
    });

    it('asks admit for each chunk as it arrives, and stops at the first it refuses', async () => {
      const body = trickle();
      const admitted: number[] = [];
      const reading = readBodyUpTo(post(body.stream), 1000, {
        admit: (bytes) => (admitted.push(bytes), admitted.length < 3),
      });
      const stopped = expect(reading).rejects.toEqual(new BodyStopped('refused'));
      body.send(10);
      body.send(20);
      body.send(30);
      body.send(40);
      await stopped;
      expect(admitted).toEqual([10, 20, 30]);
    });
  });
});
