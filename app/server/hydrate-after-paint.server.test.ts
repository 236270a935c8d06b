import { DEFERRED_PRELOAD_REL, hydrateAfterFirstPaint } from './hydrate-after-paint.server';

/** A document as Remix 2 renders its scripts: preload links, then the module script (`body`). */
const documentWith = (body: string) =>
  '<html><head><link rel="modulepreload" href="/build/entry.client-A.js"/>' +
  '<link rel="modulepreload" href="/build/root-B.js"/></head><body>' +
  `<script type="module" async="">${body}</script></body></html>`;

const REMIX_SCRIPT =
  'import * as route0 from "/build/root-B.js";\nwindow.__remixRouteModules = {"root":route0};\nimport("/build/entry.client-A.js");';

it('starts the scripts after the first paint, the entry last', () => {
  const html = hydrateAfterFirstPaint(documentWith(REMIX_SCRIPT));
  expect(html).not.toContain('href="/build/');
  // A modulepreload link without href warns in the console: the links keep their place, inert.
  expect(html).not.toContain('rel="modulepreload"');
  expect(html.match(new RegExp(`<link rel="${DEFERRED_PRELOAD_REL}"/>`, 'g'))).toHaveLength(2);
  expect(html).toContain('const entry = "/build/entry.client-A.js";');
  expect(html.indexOf('await import(href)')).toBeLessThan(html.indexOf('import("/build/entry.client-A.js")'));
});

// Without the entry's import at its end the loop would evaluate the entry (which hydrates) before the routes.
it('leaves a document whose module script has no entry import, or no static import, as it is', () => {
  for (const body of [
    REMIX_SCRIPT.replace('import("/build/entry.client-A.js");', ''),
    'import("/build/entry.client-A.js");',
  ]) {
    expect(hydrateAfterFirstPaint(documentWith(body))).toBe(documentWith(body));
  }
});
