/**
 * `npm run measure:apply` (after `npm run build`): serves the built web on the embedded defaults
 * (PGlite, local image store) and times, in one run, N no-JavaScript ad applications — a
 * multipart POST of the form with a real 350×100 PNG, answered with the re-rendered page: parse,
 * validate, presigned URL, PUT, sniff, submit — beside N GETs of the same page as the baseline.
 * Prints the median and p95 of each in ms and the ratio of the medians. Loopback only; each POST
 * comes from its own X-Forwarded-For address so the per-IP limit does not interfere.
 */
import { readFileSync } from 'node:fs';
import { serveForMeasure } from './serve-for-measure';

const RUNS = 40;
const png = readFileSync(new URL('../tests/fixtures/images/web-banner-350x100.png', import.meta.url));

const served = await serveForMeasure({ port: 3302, path: '/ads/apply', env: { TRUST_PROXY: '1' } });
const quantile = (values: number[], q: number) =>
  [...values].sort((a, b) => a - b)[Math.floor(q * (values.length - 1))];
const time = async (request: () => Promise<Response>, check: (response: Response, body: string) => boolean) => {
  const started = performance.now();
  const response = await request();
  const body = await response.text();
  const ms = performance.now() - started;
  if (!check(response, body)) throw new Error(`unexpected answer ${response.status}`);
  return ms;
};
try {
  const page = () => fetch(`${served.url}/ads/apply`);
  const apply = (run: number) => {
    const form = new FormData();
    for (const [name, value] of Object.entries({
      type: 'web',
      title: `측정 ${run}`,
      applicantName: '김모현',
      applicantPhone: '010-1234-5678',
      email: 'shop@example.com',
      redirectUrl: 'https://shop.example/',
      duration: '1',
    }))
      form.append(name, value);
    form.append('image', new File([png], 'banner.png', { type: 'image/png' }));
    return fetch(`${served.url}/ads/apply`, {
      method: 'POST',
      body: form,
      headers: { 'X-Forwarded-For': `198.18.${Math.floor(run / 250)}.${(run % 250) + 1}` },
    });
  };
  for (let warm = 0; warm < 5; warm++) {
    await time(page, (r) => r.ok);
    await time(
      () => apply(1000 + warm),
      (r) => r.ok,
    );
  }
  const gets: number[] = [];
  const posts: number[] = [];
  for (let run = 0; run < RUNS; run++) {
    gets.push(await time(page, (r) => r.ok));
    posts.push(
      await time(
        () => apply(run),
        (r, body) => r.ok && body.includes('광고 접수가 완료되었습니다.'),
      ),
    );
  }
  const line = (label: string, values: number[]) =>
    `${label}: median ${quantile(values, 0.5).toFixed(1)} ms, p95 ${quantile(values, 0.95).toFixed(1)} ms`;
  console.log(`${RUNS} runs each, sequential, loopback`);
  console.log(line('GET /ads/apply (baseline)       ', gets));
  console.log(line(`POST /ads/apply, no JS, ${png.byteLength} B PNG`, posts));
  console.log(`ratio of medians: ${(quantile(posts, 0.5) / quantile(gets, 0.5)).toFixed(2)}× the page GET`);
} finally {
  await served.stop();
}
