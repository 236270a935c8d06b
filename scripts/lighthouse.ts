/**
 * `npm run measure:lighthouse [-- URL]`: Lighthouse 12 (mobile preset: its default config, a
 * Moto G Power sized screen, simulated slow 4G and a 4× slower CPU) on /, /ads/apply and /faq of a
 * running server, driving Debian's Chromium through chrome-launcher, RUNS times each; every figure
 * is the median of the runs (a run Lighthouse could not record is tried again, up to RETRIES). The
 * baseline, measured first in the same run, is /offline.html: a static page of the same server with
 * inline styles and no script, the floor a page of this server can reach; the LCP column also gives
 * each page's LCP as a multiple of the baseline's.
 *
 * The server is the first argument, else LIGHTHOUSE_URL, else http://localhost:3000; measure a
 * production build (`npm run build`, then NODE_ENV=production). LIGHTHOUSE_LANG=en measures the
 * English pages (the browser sends `Accept-Language: en-US,en`; the baseline is /offline.en.html);
 * the default is Korean. Prints the machine, the browser, one
 * row per page (the four category scores out of 100; LCP and TBT in milliseconds; CLS; each the
 * median of the runs) and then the
 * failed accessibility, best-practices and SEO audits with the elements they name. A page Lighthouse
 * could not load (e.g. a 404) gets a row of dashes, and its error under the table.
 */
import { cpus, totalmem } from 'node:os';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse, { type Result } from 'lighthouse';

/** The pages' language, as the phone asks for it (LIGHTHOUSE_LANG: ko, the default, or en). */
const LANGUAGE = process.env.LIGHTHOUSE_LANG ?? 'ko';
if (LANGUAGE !== 'ko' && LANGUAGE !== 'en') throw new Error(`LIGHTHOUSE_LANG=${LANGUAGE}: ko or en`);
const ACCEPT_LANGUAGE = LANGUAGE === 'en' ? 'en-US,en;q=0.9' : 'ko-KR,ko;q=0.9';

/** The baseline first (see above), then the measured pages. */
const BASELINE = LANGUAGE === 'en' ? '/offline.en.html' : '/offline.html';
const PAGES = [BASELINE, '/', '/ads/apply', '/faq'];
/** Runs per page: the figures are their medians. */
const RUNS = 3;
/** Tries of a run Lighthouse could not record (its trace came back without a navigation, e.g.). */
const RETRIES = 3;
const CATEGORIES = ['performance', 'accessibility', 'best-practices', 'seo'] as const;
/** Categories whose failed audits are listed under the table. */
const FINDING_CATEGORIES = ['accessibility', 'best-practices', 'seo'] as const;

const origin = new URL(process.argv[2] ?? process.env.LIGHTHOUSE_URL ?? 'http://localhost:3000').origin;

const chrome = await chromeLauncher.launch({
  chromePath: '/usr/bin/chromium',
  chromeFlags: [
    '--headless=new',
    '--no-sandbox',
    '--disable-gpu',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
    '--no-first-run',
  ],
});
const results: { path: string; runs: Result[] }[] = [];
let browser = 'unknown';
try {
  // The full version (the user agent string is reduced to 156.0.0.0 and the like).
  const version = (await (await fetch(`http://127.0.0.1:${chrome.port}/json/version`)).json()) as { Browser: string };
  browser = version.Browser;
  for (const path of PAGES) {
    const runs: Result[] = [];
    for (let tries = 0; runs.length < RUNS && tries < RUNS + RETRIES; tries++) {
      const run = await lighthouse(`${origin}${path}`, {
        port: chrome.port,
        logLevel: 'error',
        onlyCategories: [...CATEGORIES],
        extraHeaders: { 'Accept-Language': ACCEPT_LANGUAGE },
      });
      if (!run) throw new Error(`Lighthouse returned nothing for ${path}`);
      // A page that cannot load (a 404) keeps its error; a trace that failed to record is tried again.
      if (run.lhr.runtimeError?.code === 'NO_NAVSTART') continue;
      runs.push(run.lhr);
      if (run.lhr.runtimeError) break;
    }
    results.push({ path, runs });
  }
} finally {
  chrome.kill();
}

console.log(
  `Machine: ${cpus().length} CPUs (${cpus()[0]?.model.trim()}), ${(totalmem() / 2 ** 30).toFixed(1)} GiB; ` +
    `browser ${browser}; Lighthouse ${results[0].runs[0].lighthouseVersion}, ` +
    `benchmark index ${Math.round(results[0].runs[0].environment.benchmarkIndex)}`,
);
console.log(
  `Server: ${origin}, pages in ${LANGUAGE === 'en' ? 'English' : 'Korean'} (Accept-Language: ${ACCEPT_LANGUAGE}; ` +
    `mobile preset, simulated throttling; medians of ${RUNS} runs)\n`,
);

const header = ['page', 'perf', 'a11y', 'best-pr.', 'seo', 'LCP ms', '× base', 'TBT ms', 'CLS'];
/** The median of the values `of` gives for the runs (undefined when none has one). */
function median(runs: Result[], of: (lhr: Result) => number | null | undefined): number | undefined {
  const values = runs
    .map(of)
    .filter((value): value is number => typeof value === 'number')
    .sort((a, b) => a - b);
  if (values.length === 0) return undefined;
  const middle = Math.floor(values.length / 2);
  return values.length % 2 ? values[middle] : (values[middle - 1] + values[middle]) / 2;
}
const measured = (runs: Result[]) => runs.filter((lhr) => !lhr.runtimeError);
const lcpOf = (runs: Result[]) => median(measured(runs), (lhr) => lhr.audits['largest-contentful-paint']?.numericValue);
const baselineLcp = lcpOf(results[0].runs);
const rows = results.map(({ path, runs }) => {
  const ok = measured(runs);
  if (ok.length === 0) return [path, ...header.slice(1).map(() => '—')];
  const score = (id: (typeof CATEGORIES)[number]) => {
    const value = median(ok, (lhr) => lhr.categories[id]?.score);
    return value === undefined ? '—' : String(Math.round(value * 100));
  };
  const metric = (id: string, digits: number) =>
    median(ok, (lhr) => lhr.audits[id]?.numericValue)?.toFixed(digits) ?? '—';
  const lcp = lcpOf(runs);
  return [
    path === BASELINE ? `${path} (baseline)` : path,
    ...CATEGORIES.map(score),
    metric('largest-contentful-paint', 0),
    baselineLcp && lcp !== undefined ? (lcp / baselineLcp).toFixed(2) : '—',
    metric('total-blocking-time', 0),
    metric('cumulative-layout-shift', 3),
  ];
});
const widths = header.map((title, column) => Math.max(title.length, ...rows.map((row) => row[column].length)));
for (const row of [header, ...rows]) {
  console.log(
    row.map((cell, column) => (column === 0 ? cell.padEnd(widths[column]) : cell.padStart(widths[column]))).join('  '),
  );
}

for (const { path, runs } of results) {
  // The findings of the last run (the audits behind them rarely differ between runs).
  const lhr = runs.at(-1);
  if (!lhr) {
    console.log(`\n${path}: not measured: no run recorded a trace in ${RUNS + RETRIES} tries`);
    continue;
  }
  if (lhr.runtimeError) console.log(`\n${path}: not measured: ${lhr.runtimeError.code}: ${lhr.runtimeError.message}`);
  for (const category of FINDING_CATEGORIES) {
    for (const ref of lhr.categories[category]?.auditRefs ?? []) {
      const audit = lhr.audits[ref.id];
      if (
        audit.score === null ||
        audit.score >= 1 ||
        !['binary', 'numeric', 'metricSavings'].includes(audit.scoreDisplayMode)
      ) {
        continue;
      }
      console.log(`\n${path} [${category}] ${audit.id}: ${audit.title}`);
      const items = audit.details && 'items' in audit.details ? audit.details.items : [];
      for (const item of items.slice(0, 5)) {
        const node = (item as { node?: { selector?: string; snippet?: string } }).node;
        const where = node?.selector ?? node?.snippet ?? (item as { source?: { url?: string } }).source?.url;
        if (where) console.log(`  - ${where}`);
      }
    }
  }
}
