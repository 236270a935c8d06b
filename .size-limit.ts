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
  'routes/_index': 102, // the language switch and the page's catalog (ADR 032)
  'routes/$': 89,
  'routes/ads.apply': 124.5, // the language switch (ADR 032)
  'routes/ads.status.$token': 110, // the language switch (ADR 032)
  'routes/contact': 121.5, // the language switch (ADR 032)
  'routes/faq': 112.5, // the language switch (ADR 032)
  'routes/howtouse': 93.5,
  'routes/privacypolicy': 94, // the language switch (ADR 032)
  'routes/admin-only': 89.5,
  'routes/admin-only._index': 91.5, // the header's catalog (ADR 032)
  'routes/admin-only.ads.$type._index': 111, // the ad's version on its card's form
  'routes/admin-only.ads.$type.confirm.$id': 127,
  'routes/admin-only.ads.edit.$type': 128.5,
  'routes/admin-only.audit': 108.5,
  'routes/admin-only.feed': 125, // the restart form of a changed timetable (conform and zod, as the other admin forms)
  'routes/admin-only.gbis': 122.5,
  'routes/admin-only.inquiries': 124, // the header's catalog (ADR 032)
  'routes/admin-only.mail': 94.5, // the header's catalog (ADR 032)
  'routes/admin-only.notice': 121, // the notice's version, and the stale save's message
  'routes/admin-only_.login': 120.5,
  'routes/admin-only_.setup': 121,
};

export default [...routeScripts()].map(([route, path]) => {
  const limit = BUDGETS_KIB[route];
  if (limit === undefined) throw new Error(`.size-limit.ts: the page ${route} has no JavaScript budget; add one.`);
  return { name: `${route} JavaScript`, path, gzip: true, limit: `${limit} KiB` };
});
