/**
 * Hydration after the first paint (ADR 026): every page is whole without JavaScript (server-rendered,
 * its stylesheet inline), so the scripts that hydrate it need not compete with its first paint.
 * Remix's `<Scripts>` renders a `<link rel="modulepreload">` per module and one inline module script
 * that imports the route modules statically, then the client entry. This rewrites the rendered
 * document so that the module script first waits for the page's first contentful paint (AFTER_FIRST_PAINT),
 * then announces the same modules as modulepreload links, all at once, and imports the route
 * modules before the entry, as Remix's script did. What the page does once hydrated is unchanged.
 */

/** The longest the module script waits for the first contentful paint, milliseconds: then it goes on regardless. */
export const FIRST_PAINT_WAIT_MS = 3000;

/**
 * The statement that waits: for the paint timing entry 'first-contentful-paint' (it may have come
 * already: buffered); without paint timing, two animation frames (the start of the frame after the
 * first one: Chromium runs animation frames before it paints anything, so this is the fallback
 * only); in a tab in the background, which paints nothing, for nothing.
 */
const AFTER_FIRST_PAINT = `await new Promise((go) => {
  if (document.visibilityState !== "visible") return go();
  setTimeout(go, ${FIRST_PAINT_WAIT_MS});
  if (!PerformanceObserver.supportedEntryTypes?.includes("paint")) return requestAnimationFrame(() => requestAnimationFrame(go));
  new PerformanceObserver((list, observer) => {
    if (list.getEntriesByName("first-contentful-paint").length === 0) return;
    observer.disconnect();
    go();
  }).observe({ type: "paint", buffered: true });
});
`;

const PRELOAD_HREF = /(<link rel="modulepreload"[^>]*?) href="([^"]+)"/g;
const MODULE_SCRIPT = /(<script\b[^>]*\btype="module"[^>]*>)([\s\S]*?)(<\/script>)/;
const STATIC_IMPORT = /^import \* as (\w+) from ("[^"]+");$/gm;

/**
 * `html` (a rendered document) with Remix's modulepreload links emptied of their href and its
 * module script starting after the first paint, as the module docstring says. The links stay, so
 * that hydration finds the elements it rendered (React 18 leaves an attribute it did not expect as
 * it is); a modulepreload link without href fetches nothing.
 * @returns `html` unchanged when it has no module script (an error page rendered without <Scripts>)
 *   or its module script imports nothing statically (not the shape Remix 2 renders).
 */
export function hydrateAfterFirstPaint(html: string): string {
  const script = MODULE_SCRIPT.exec(html);
  if (!script) return html;
  const [whole, open, body, close] = script;
  const imports = [...body.matchAll(STATIC_IMPORT)];
  if (imports.length === 0) return html;
  const hrefs = [...html.matchAll(PRELOAD_HREF)].map(([, , href]) => href);
  const names = imports.map(([, name]) => name).join(', ');
  const specifiers = imports.map(([, , specifier]) => `import(${specifier})`).join(', ');
  const wait =
    AFTER_FIRST_PAINT +
    `for (const href of ${JSON.stringify(hrefs)}) document.head.append(Object.assign(document.createElement("link"), { rel: "modulepreload", href }));\n` +
    `const [${names}] = await Promise.all([${specifiers}]);`;
  const rewritten = `${open}${wait}${body.replace(STATIC_IMPORT, '')}${close}`;
  return html.replace(PRELOAD_HREF, '$1').replace(whole, () => rewritten);
}
