/**
 * Second step of `npm run build` (after `remix build`): writes the offline page of each language
 * (public/offline.html, public/offline.en.html) from its template (app/offline.html, filled by
 * app/i18n/offline-page.ts) with the built app stylesheet, then generates public/sw.js with
 * workbox-build's generateSW from the build output (docs/decisions/009-installable-app.md).
 *
 * - Precached: the hashed Remix assets (public/build/**: JS and CSS, but the admin's route modules;
 *   their names change with their content, so they are fetched without a cache-busting revision),
 *   the icons, the manifests, the logo and the offline pages.
 * - Navigations: always the network (a page is never served stale); when the network fails, the
 *   precached offline page in the rider's language: the one the site last answered a page in (its
 *   Content-Language, kept in the `campus-bus-language` cache), else the first of Korean and
 *   English the phone's languages name, else Korean (the server's rule, app/i18n/locale.server.ts).
 * - Everything else (Remix's single-fetch data requests `*.data` and route discovery
 *   `/__manifest`, /bus/*, /api/*, /ads/*, /images/*, /admin-only) matches no route, so the worker does not answer it and nothing of it is cached: the
 *   bus data is never served as if it were current.
 * - The reminders' handlers (push, notificationclick, pushsubscriptionchange) are public/sw-push.js,
 *   which the worker imports (importScripts): they cache nothing (ADR 033).
 * - skipWaiting + clientsClaim: a new worker takes over at once. Safe, because no page depends on the
 *   worker's version: pages come from the network and ask for assets by hashed name; an asset the new
 *   precache no longer holds falls through to the network as it would without a worker.
 *
 * Any workbox warning (e.g. a file above the precache size limit) fails the build.
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { generateSW } from 'workbox-build';
import { LOCALES } from '../contract/locales';
import { OFFLINE_PAGES, offlinePage } from '../app/i18n/offline-page';

// The offline page links the same hashed stylesheet as every page (app/root.tsx), precached below.
const stylesheets = readdirSync('public/build/_assets').filter((name) => /^app-[\w-]+\.css$/.test(name));
if (stylesheets.length !== 1) {
  console.error(`[build-sw] expected one public/build/_assets/app-*.css, found ${stylesheets.length}`);
  process.exit(1);
}
const template = readFileSync('app/offline.html', 'utf8');
if (!template.includes('href="%APP_CSS%"')) {
  console.error('[build-sw] app/offline.html has no <link href="%APP_CSS%"> to fill');
  process.exit(1);
}
const styled = template.replace('href="%APP_CSS%"', `href="/build/_assets/${stylesheets[0]}"`);
for (const locale of LOCALES) writeFileSync(`public${OFFLINE_PAGES[locale]}`, offlinePage(styled, locale));

const { count, size, warnings } = await generateSW({
  globDirectory: 'public',
  globPatterns: ['build/**/*.{js,css}', 'icons/*.png', 'manifest*.webmanifest', 'logo.svg', 'offline*.html'],
  // The admin's pages (and the drag-and-drop library only their ad list loads) are of no use offline
  // and never on a rider's phone.
  globIgnores: ['build/routes/admin-only*', 'build/_shared/sortable*'],
  dontCacheBustURLsMatching: /^build\//,
  swDest: 'public/sw.js',
  importScripts: ['/sw-push.js'],
  inlineWorkboxRuntime: true,
  sourcemap: false,
  mode: 'production',
  cacheId: 'campus-bus',
  cleanupOutdatedCaches: true,
  skipWaiting: true,
  clientsClaim: true,
  // The worker's start-up does not delay a page: the browser starts the request meanwhile.
  navigationPreload: true,
  runtimeCaching: [
    {
      // NOTE: both serialised into sw.js with toString(): they may use only their argument and the
      // worker's globals, so the offline pages' paths are written out (OFFLINE_PAGES), and no
      // function is bound to a name (tsx would wrap it in its own __name helper, absent there).
      urlPattern: ({ request }) => request.mode === 'navigate',
      handler: async ({ request, event }) => {
        try {
          const preloaded = await (event as { preloadResponse?: Promise<Response | undefined> }).preloadResponse;
          const response = preloaded ?? (await fetch(request));
          // The language the site answered in (the rider's choice, else the phone's): the offline page's.
          const language = response.headers.get('content-language');
          if (language === 'ko' || language === 'en')
            (event as { waitUntil(work: Promise<unknown>): void }).waitUntil(
              caches.open('campus-bus-language').then((cache) => cache.put('/language', new Response(language))),
            );
          return response;
        } catch (error) {
          const chosen = await caches.match('/language').then((answer) => answer?.text());
          const named = navigator.languages.map((tag) => tag.slice(0, 2)).find((code) => ['ko', 'en'].includes(code));
          const locale = chosen === 'ko' || chosen === 'en' ? chosen : (named ?? 'ko');
          const page = await caches.match(locale === 'en' ? '/offline.en.html' : '/offline.html', {
            ignoreSearch: true,
          });
          if (page) return page;
          throw error;
        }
      },
    },
  ],
});

// A handler that names a function gets tsx's __name helper in its source, which the worker lacks.
if (readFileSync('public/sw.js', 'utf8').includes('__name('))
  warnings.push('sw.js calls __name, undefined in the worker');
for (const warning of warnings) console.error(`[build-sw] ${warning}`);
console.info(`[build-sw] public/sw.js: ${count} files precached, ${(size / 1024).toFixed(1)} KB`);
if (warnings.length > 0) process.exit(1);
