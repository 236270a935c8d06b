/**
 * `npm run bench:refresh [-- --connections 100 --seconds 20]`: load-tests the phones' refresh route
 * (GET /bus/time-left) of the built app with autocannon from this process while server.ts runs in
 * its own, and prints requests/s and latency percentiles (the upstream call count under load is
 * asserted by tests/refresh-fanout.test.ts). Needs `npm run build` first. Loopback only.
 */
import autocannon from 'autocannon';
import { latencyLine, loadOptions, serveForMeasure } from './serve-for-measure';

const { connections, duration } = loadOptions({ connections: 100, seconds: 20 });

const served = await serveForMeasure({ port: 3300, path: '/bus/time-left' });
try {
  const result = await autocannon({ url: `${served.url}/bus/time-left`, connections, duration });
  console.log(`${connections} connections for ${duration} s (autocannon, loopback)`);
  console.log(latencyLine('GET /bus/time-left', result));
  console.log(`  equivalent phones at one refresh per 4 s: ${Math.floor(result.requests.average * 4)}`);
} finally {
  await served.stop();
}
