/**
 * `npm run measure:home`: runs `npm start` (build + serve) and prints the milliseconds from the
 * command to the first served home page, then the gzipped size of the JavaScript the home page
 * loads (every script and modulepreload in its HTML). Loopback only.
 */
import { gzipSync } from 'node:zlib';
import { serveForMeasure } from './serve-for-measure';

const served = await serveForMeasure({ port: 3301, command: ['npm', 'start'] });
try {
  console.log(`npm start → first served page: ${(served.readyMs / 1000).toFixed(1)} s (includes remix build)`);
  const html = await (await fetch(served.url)).text();
  const sources = [...html.matchAll(/<(?:script|link)[^>]+(?:src|href)="(\/build\/[^"]+\.js)"/g)].map((m) => m[1]);
  let total = 0;
  for (const src of new Set(sources)) {
    const body = Buffer.from(await (await fetch(served.url + src)).arrayBuffer());
    const gz = gzipSync(body, { level: 9 }).length;
    total += gz;
    console.log(`  ${src}: ${(body.length / 1024).toFixed(1)} KB raw, ${(gz / 1024).toFixed(1)} KB gzip`);
  }
  console.log(`home page JavaScript: ${(total / 1024).toFixed(1)} KB gzipped in ${new Set(sources).size} files`);
  console.log(`home page HTML: ${(gzipSync(html).length / 1024).toFixed(1)} KB gzipped`);
} finally {
  await served.stop();
}
