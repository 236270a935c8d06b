/**
 * Hydration after the first paint (ADR 026): every page is whole without JavaScript (server-rendered,
 * its stylesheet inline), so the scripts that hydrate it need not compete with its first paint.
 * Remix's `<Scripts>` renders a `<link rel="modulepreload">` per module and one inline module script
 * that imports the route modules statically, then the client entry. This rewrites the rendered
 * document so that the module script first waits for the page's first contentful paint (AFTER_FIRST_PAINT),
 * then announces the same modules as modulepreload links and evaluates them, a link or a module per
 * task (ONE_PER_TASK), and imports the route modules before the entry, as Remix's script did. What
 * the page does once hydrated is unchanged.
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

/**
 * `nextTask()`, a promise of the next task: a message, as React's scheduler yields, not a timer,
 * which a page's fake clock may hold.
 */
const NEXT_TASK = `const nextTask = () => new Promise((go) => {
  const channel = new MessageChannel();
  channel.port1.onmessage = () => go();
  channel.port2.postMessage(null);
});
`;

/**
 * The statements that announce the modules (`hrefs` and `entry` are bound before them), then
 * evaluate them but the entry in their order, each in a task of its own. Appending a modulepreload
 * link costs 0.3–3.5 ms of the main thread (it starts the link's fetch), 19 links on the home page;
 * importing the whole graph at once evaluated every module in one task (30–40 ms here). Lighthouse's
 * phone counts four times that, all of it blocking. The entry hydrates when evaluated, so it comes
 * last, after the route modules.
 */
const ONE_PER_TASK = `for (const href of hrefs) {
  document.head.append(Object.assign(document.createElement("link"), { rel: "modulepreload", href }));
  await nextTask();
}
for (const href of hrefs) {
  if (href === entry) continue;
  await import(href);
  await nextTask();
}
`;

const PRELOAD_HREF = /<link rel="modulepreload"([^>]*?) href="([^"]+)"/g;
/**
 * The rel Remix's modulepreload links are rendered with instead: one no browser knows, so the link
 * fetches nothing (the module script announces the modules after the first paint) and, unlike a
 * modulepreload link without href, makes no console warning.
 */
export const DEFERRED_PRELOAD_REL = 'x-deferred-modulepreload';
const MODULE_SCRIPT = /(<script\b[^>]*\btype="module"[^>]*>)([\s\S]*?)(<\/script>)/;
const STATIC_IMPORT = /^import \* as (\w+) from ("[^"]+");$/gm;
/** The entry's dynamic import at the end of Remix's module script. */
const ENTRY_IMPORT = /\bimport\("([^"]+)"\)/;

/**
 * `html` (a rendered document) with Remix's modulepreload links made inert (DEFERRED_PRELOAD_REL,
 * no href) and its module script starting after the first paint, as the module docstring says. The
 * links stay, so that hydration finds the elements it rendered (React 18's production build leaves
 * an attribute it did not expect as it is; its development build warns once per page that `rel`
 * and `href` did not match).
 * @returns `html` unchanged when it has no module script (an error page rendered without <Scripts>),
 *   or its module script imports nothing statically or no entry at its end (not the shape Remix 2
 *   renders: the entry, which hydrates when evaluated, must come last).
 */
export function hydrateAfterFirstPaint(html: string): string {
  const script = MODULE_SCRIPT.exec(html);
  if (!script) return html;
  const [whole, open, body, close] = script;
  const imports = [...body.matchAll(STATIC_IMPORT)];
  if (imports.length === 0) return html;
  const hrefs = [...html.matchAll(PRELOAD_HREF)].map(([, , href]) => href);
  const entry = ENTRY_IMPORT.exec(body)?.[1];
  if (!entry) return html;
  const names = imports.map(([, name]) => name).join(', ');
  const specifiers = imports.map(([, , specifier]) => `import(${specifier})`).join(', ');
  const wait =
    NEXT_TASK +
    AFTER_FIRST_PAINT +
    `const hrefs = ${JSON.stringify(hrefs)};\nconst entry = ${JSON.stringify(entry)};\n` +
    ONE_PER_TASK +
    `const [${names}] = await Promise.all([${specifiers}]);`;
  const rewritten = `${open}${wait}${body.replace(STATIC_IMPORT, '')}${close}`;
  return html.replace(PRELOAD_HREF, `<link rel="${DEFERRED_PRELOAD_REL}"$1`).replace(whole, () => rewritten);
}
