/**
 * The JavaScript budgets `npm test` enforces (`size-limit`, after the build): what the home page
 * loads, gzipped, at most 100 KB, with KB = 1,024 bytes (KiB) as the project's
 * measuring scripts have always counted. The files are the build manifest's for the page
 * (scripts/route-js.ts): the scripts the page's HTML loads.
 */
import { routeScripts } from './scripts/route-js';

export default [
  {
    name: 'home page (/) JavaScript',
    path: routeScripts().get('routes/_index'),
    gzip: true,
    limit: '100 KiB',
  },
];
