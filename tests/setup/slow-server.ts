/**
 * A bare HTTP server run by serveUntilSignal (lib/lifecycle.ts), for the tests of what a shutdown
 * does to connections: `GET /slow` prints `slow request received` and answers 200 after SLOW_MS
 * milliseconds (default 3000); any other path answers 200 at once. Listens on PORT.
 * `tsx tests/setup/slow-server.ts`.
 */
import { createServer } from 'node:http';
import { serveUntilSignal } from '../../lib/lifecycle';

const slowMs = Number(process.env.SLOW_MS ?? 3_000);
const server = createServer((req, res) => {
  const answer = () => res.writeHead(200, { 'Content-Type': 'text/plain' }).end(`${req.url} answered\n`);
  if (req.url !== '/slow') return answer();
  console.info('slow request received');
  setTimeout(answer, slowMs);
});
serveUntilSignal(server, {
  port: Number(process.env.PORT),
  label: '[slow]',
  onListening: () => undefined,
  onClose: async () => undefined,
});
