/**
 * `npm run bench:refresh [-- --connections 100 --seconds 20]`: load-tests the phones' refresh route
 * (GET /bus/time-left) of the built app with autocannon from this process while server.ts runs in
 * its own, and prints requests/s and latency percentiles (the upstream call count under load is
 * asserted by tests/refresh-fanout.test.ts). Needs `npm run build` first. Loopback only.
 */
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { serveForMeasure } from './serve-for-measure';

const { values } = parseArgs({
  options: { connections: { type: 'string', default: '100' }, seconds: { type: 'string', default: '20' } },
});
const connections = Number(values.connections);
const duration = Number(values.seconds);

const served = await serveForMeasure({ port: 3300, path: '/bus/time-left' });
try {
  const result = await autocannon({ url: `${served.url}/bus/time-left`, connections, duration });
  const non2xx = result.non2xx + result.errors;
  console.log(`GET /bus/time-left — ${connections} connections for ${duration} s (autocannon, loopback)`);
  console.log(
    `  requests/s: mean ${result.requests.average.toFixed(0)}, total ${result.requests.total}, non-2xx/errors ${non2xx}`,
  );
  console.log(
    `  latency ms: p50 ${result.latency.p50}, p90 ${result.latency.p90}, p99 ${result.latency.p99}, max ${result.latency.max}`,
  );
  console.log(`  equivalent phones at one refresh per 4 s: ${Math.floor(result.requests.average * 4)}`);
} finally {
  await served.stop();
}
