/**
 * One large POST, sent as an attacker would (tests/attack-bodies.test.ts), from a process of its own
 * so that its writing loop never delays the test's probes or timings: `size` bytes of `a` to `url`, declared
 * by Content-Length unless `--chunked`, stopped once the answer comes. Prints one JSON line:
 * { status, ms (from the first byte sent to the answer's headers), bytes (the answer's), contentType, body }.
 */
import { request } from 'node:http';
import { Readable } from 'node:stream';
import { parseArgs } from 'node:util';

const { values } = parseArgs({
  options: {
    url: { type: 'string' },
    size: { type: 'string' },
    origin: { type: 'string' },
    chunked: { type: 'boolean', default: false },
  },
});
const size = Number(values.size);
const chunk = Buffer.alloc(64 * 1024, 'a');
let sent = 0;
const source = new Readable({
  read() {
    // One chunk per turn of the event loop: the answer is read as soon as it comes.
    setImmediate(() => {
      if (sent >= size) return this.push(null);
      sent += chunk.length;
      this.push(chunk);
    });
  },
});
const started = performance.now();
const outgoing = request(values.url!, {
  method: 'POST',
  headers: {
    Origin: values.origin!,
    'Content-Type': 'application/x-www-form-urlencoded',
    ...(values.chunked ? { 'Transfer-Encoding': 'chunked' } : { 'Content-Length': String(size) }),
  },
});
outgoing.on('response', (response) => {
  const ms = performance.now() - started;
  const parts: Buffer[] = [];
  response.on('data', (part: Buffer) => parts.push(part));
  response.on('end', () => {
    const body = Buffer.concat(parts);
    console.log(
      JSON.stringify({
        status: response.statusCode,
        ms,
        bytes: body.byteLength,
        contentType: response.headers['content-type'],
        body: body.toString(),
      }),
    );
    process.exit(0);
  });
});
outgoing.on('error', (error) => {
  console.log(JSON.stringify({ error: error.message }));
  process.exit(1);
});
source.pipe(outgoing);
