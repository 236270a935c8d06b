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
  'routes/_index': 103.5, // the Korean catalog (ADR 032), in every page until it is split by page
  'routes/$': 91.5, // the Korean catalog (ADR 032), in every page until it is split by page
  'routes/ads.apply': 126.5, // the Korean catalog (ADR 032), in every page until it is split by page
  'routes/ads.status.$token': 112.5, // the Korean catalog (ADR 032), in every page until it is split by page
  'routes/contact': 124, // the Korean catalog (ADR 032), in every page until it is split by page
  'routes/faq': 114.5, // the Korean catalog (ADR 032), in every page until it is split by page
  'routes/howtouse': 95.5, // the Korean catalog (ADR 032), in every page until it is split by page
  'routes/privacypolicy': 96.5, // the Korean catalog (ADR 032), in every page until it is split by page
  'routes/admin-only': 92, // the Korean catalog (ADR 032), in every page until it is split by page
  'routes/admin-only._index': 94, // the Korean catalog (ADR 032), in every page until it is split by page
  'routes/admin-only.ads.$type._index': 113, // the Korean catalog (ADR 032), in every page until it is split by page
  'routes/admin-only.ads.$type.confirm.$id': 129.5, // the Korean catalog (ADR 032), in every page until it is split by page
  'routes/admin-only.ads.edit.$type': 130.5, // the Korean catalog (ADR 032), in every page until it is split by page
  'routes/admin-only.audit': 111, // the Korean catalog (ADR 032), in every page until it is split by page
  'routes/admin-only.feed': 127.5, // the Korean catalog (ADR 032), in every page until it is split by page
  'routes/admin-only.gbis': 125, // the Korean catalog (ADR 032), in every page until it is split by page
  'routes/admin-only.inquiries': 126.5, // the Korean catalog (ADR 032), in every page until it is split by page
  'routes/admin-only.mail': 97, // the Korean catalog (ADR 032), in every page until it is split by page
  'routes/admin-only.notice': 123.5, // the Korean catalog (ADR 032), in every page until it is split by page
  'routes/admin-only_.login': 122, // the Korean catalog (ADR 032), in every page until it is split by page
  'routes/admin-only_.setup': 122.5, // the Korean catalog (ADR 032), in every page until it is split by page
};

export default [...routeScripts()].map(([route, path]) => {
  const limit = BUDGETS_KIB[route];
  if (limit === undefined) throw new Error(`.size-limit.ts: the page ${route} has no JavaScript budget; add one.`);
  return { name: `${route} JavaScript`, path, gzip: true, limit: `${limit} KiB` };
});
