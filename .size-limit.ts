/**
 * The JavaScript budgets `npm test` enforces (`size-limit`, after the build): what each page loads,
 * gzipped, with KB = 1,024 bytes (KiB) as the project's measuring scripts have always counted. The
 * files are the build manifest's for the page (scripts/route-js.ts): the scripts the page's HTML
 * loads. Each budget is what the page carried when it was set, rounded up, plus about 1 KiB: a page
 * that grows past it fails the build until its budget is raised on purpose. A page with no budget
 * here fails too.
 */
import { routeScripts } from './scripts/route-js';

/** Page route id → its budget in KiB (gzipped). */
const BUDGETS_KIB: Record<string, number> = {
  'routes/_index': 107.5, // 106.5: 103.9 with English (ADR 032), plus the reminder bell, its hook and words (ADR 033)
  'routes/$': 91, // 90.1: the language switch, the catalogs' shared helpers (ADR 032)
  'routes/ads.apply': 128.5, // 127.5 with its words and its checks' messages in the ads catalog (ADR 032)
  'routes/ads.status.$token': 115.5, // 115.0 with its words and the chart's in the ads catalog, the bank's names marked (ADR 032)
  'routes/contact': 125, // 123.8 with its words and checks' messages in the contact catalog (ADR 032)
  'routes/faq': 119, // 118.0: its answers (faq catalog), the payment's words (ads catalog; ADR 032)
  'routes/howtouse': 98.5, // 97.4 with the guide's words (howto catalog; ADR 032)
  'routes/privacypolicy': 97, // 96.0 with the policy's articles (privacy catalog; ADR 032)
  'routes/admin-only': 91.5, // 90.5: the shared layout and forms read the page's language (ADR 032)
  'routes/admin-only._index': 93.5, // 92.5: the shared layout and forms read the page's language (ADR 032)
  'routes/admin-only.ads.$type._index': 113, // 112.2: the shared layout and forms read the page's language (ADR 032)
  'routes/admin-only.ads.$type.confirm.$id': 129, // 128.5: the shared layout and forms read the page's language (ADR 032)
  'routes/admin-only.ads.edit.$type': 130.5, // 129.7: the shared layout and forms read the page's language (ADR 032)
  'routes/admin-only.audit': 110.5, // 109.6: the shared layout and forms read the page's language (ADR 032)
  'routes/admin-only.feed': 127, // 126.1: the shared layout and forms read the page's language (ADR 032)
  'routes/admin-only.gbis': 124.5, // 123.7: the shared layout and forms read the page's language (ADR 032)
  'routes/admin-only.inquiries': 126.5, // 125.6: the shared layout and forms read the page's language (ADR 032)
  'routes/admin-only.mail': 96.5, // 95.7: the shared layout and forms read the page's language (ADR 032)
  'routes/admin-only.notice': 123, // 122.1: the shared layout and forms read the page's language (ADR 032)
  'routes/admin-only_.login': 121.5, // 120.8: the shared layout and forms read the page's language (ADR 032)
  'routes/admin-only_.setup': 122, // 121.3: the shared layout and forms read the page's language (ADR 032)
};

export default [...routeScripts()].map(([route, path]) => {
  const limit = BUDGETS_KIB[route];
  if (limit === undefined) throw new Error(`.size-limit.ts: the page ${route} has no JavaScript budget; add one.`);
  return { name: `${route} JavaScript`, path, gzip: true, limit: `${limit} KiB` };
});
