/**
 * The document render (app/entry.server.tsx) with a page of Korean text long enough to cross React's
 * write buffers: the HTML carries no NUL byte, and nothing fires after the document is answered
 * (the client going away, or the render's time limit passing, once threw outside any request and
 * stopped the server).
 */
import { createHash } from 'node:crypto';
import type { EntryContext } from '@remix-run/node';
import { SCRIPT_HASHES_HEADER } from '~/server/csp.server';
import { useScriptMarker } from '~/components/script-marker-provider';
import { DEFERRED_PRELOAD_REL } from '~/server/hydrate-after-paint.server';

/** Departure lines as the home page renders them: numbers and Korean (3 bytes a character) in separate text nodes. */
const LINES = Array.from({ length: 400 }, (_, i) => [1150 + i, i % 60] as const);

/** A script rendered as Remix's are: the render's marker in its nonce attribute (ScriptMarkerProvider). */
function MarkedScript() {
  const marker = useScriptMarker();
  return <script nonce={marker} dangerouslySetInnerHTML={{ __html: 'window.__remixContext = {};' }} />;
}

/** Remix's module script as its <Scripts> renders it (the marker first, as its nonce): the route modules imported statically, then the entry. */
const MODULE_SCRIPT = [
  'import * as route0 from "/build/root-EF56.js";',
  'import * as route1 from "/build/routes/_index-GH78.js";',
  'window.__remixRouteModules = {"root":route0,"routes/_index":route1};',
  'import("/build/entry.client-AB12.js");',
].join('\n');

function ModuleScript() {
  const marker = useScriptMarker();
  return <script nonce={marker} type="module" async dangerouslySetInnerHTML={{ __html: MODULE_SCRIPT }} />;
}

vi.mock('@remix-run/react', () => ({
  RemixServer: () => (
    <>
      <ul>
        {LINES.map(([routeNo, minutes]) => (
          <li key={routeNo}>
            {routeNo}번 {minutes}분 후 도착
          </li>
        ))}
      </ul>
      {/* As Remix's <Scripts> renders its context script (with the marker it is given as nonce), and markup that is not the app's. */}
      <MarkedScript />
      <div dangerouslySetInnerHTML={{ __html: '<script>window.__injected = 1;</script>' }} />
      {/* As Remix's <Scripts> renders its preloads. */}
      <link rel="modulepreload" href="/build/entry.client-AB12.js" />
      <link rel="modulepreload" href="/build/_shared/chunk-CD34.js" crossOrigin="anonymous" />
      <ModuleScript />
    </>
  ),
}));
vi.mock('~/server/inline-stylesheet.server', () => ({ stylesheetText: () => 'main{}' }));

const { default: handleRequest, streamTimeout } = await import('~/entry.server');

async function render(signal?: AbortSignal) {
  const request = new Request('http://localhost/', { signal });
  return handleRequest(request, 200, new Headers(), {} as EntryContext);
}

afterEach(() => vi.useRealTimers());

it('answers the whole document as UTF-8 with no NUL byte', async () => {
  const response = await render();
  expect(response.status).toBe(200);
  expect(response.headers.get('Content-Type')).toBe('text/html; charset=utf-8');
  const bytes = new Uint8Array(await response.arrayBuffer());
  expect(bytes.byteLength).toBeGreaterThan(4 * 2048);
  expect(bytes.indexOf(0)).toBe(-1);
  expect(new TextDecoder().decode(bytes)).toContain('<li>1549<!-- -->번 <!-- -->39<!-- -->분 후 도착</li>');
});

it('allows its own scripts by hash: the marker they were rendered with is taken out, and their hashes handed on', async () => {
  const response = await render();
  const html = await response.text();
  const own = '<script>window.__remixContext = {};</script>';
  expect(html).toContain(own);
  expect(html).toContain('<script>window.__injected = 1;</script>');
  expect(html).not.toContain('nonce');
  const sha256 = (text: string) => `'sha256-${createHash('sha256').update(text).digest('base64')}'`;
  // Only the scripts rendered with the marker (this one and the module script): the other one (as if injected) has no hash.
  const hashes = response.headers.get(SCRIPT_HASHES_HEADER)?.split(' ');
  expect(hashes).toHaveLength(2);
  expect(hashes).toContain(sha256('window.__remixContext = {};'));
  expect(hashes).not.toContain(sha256('window.__injected = 1;'));
});

it('starts the scripts that hydrate the page after its first paint, allowed by the hash of what it sends', async () => {
  const response = await render();
  const html = await response.text();
  // The links stay for hydration to find, without what would fetch them now.
  expect(html).toContain(`<link rel="${DEFERRED_PRELOAD_REL}"/>`);
  expect(html).toContain(`<link rel="${DEFERRED_PRELOAD_REL}" crossorigin="anonymous"/>`);
  expect(html).not.toContain('rel="modulepreload"');
  expect(html).not.toContain('href="/build/');
  const script = /<script type="module" async="">([\s\S]*?)<\/script>/.exec(html)?.[1] ?? '';
  // First a painted frame (or the wait's end), then the same modules announced, a link per task, then
  // imported: routes before the entry.
  expect(script.startsWith('const nextTask = () => new Promise((go) => {')).toBe(true);
  expect(script).toContain('channel.port2.postMessage(null);');
  expect(script).toContain('.observe({ type: "paint", buffered: true });');
  expect(script.indexOf('"paint"')).toBeLessThan(script.indexOf('const hrefs'));
  expect(script).toContain('const hrefs = ["/build/entry.client-AB12.js","/build/_shared/chunk-CD34.js"];');
  expect(script).toContain(
    'for (const href of hrefs) {\n  document.head.append(Object.assign(document.createElement("link"), { rel: "modulepreload", href }));\n  await nextTask();\n}',
  );
  // Each module but the entry evaluated in a task of its own, before the routes are imported.
  expect(script).toContain('const entry = "/build/entry.client-AB12.js";');
  expect(script).toContain('if (href === entry) continue;\n  await import(href);\n  await nextTask();');
  expect(script.indexOf('await import(href)')).toBeLessThan(script.indexOf('Promise.all'));
  expect(script).toContain(
    'const [route0, route1] = await Promise.all([import("/build/root-EF56.js"), import("/build/routes/_index-GH78.js")]);',
  );
  expect(script).not.toMatch(/^import \*/m);
  expect(script.indexOf('Promise.all')).toBeLessThan(script.indexOf('import("/build/entry.client-AB12.js")'));
  const sha256 = (text: string) => `'sha256-${createHash('sha256').update(text).digest('base64')}'`;
  expect(response.headers.get(SCRIPT_HASHES_HEADER)?.split(' ')).toContain(sha256(script));
});

it('lets nothing fire after the answer: the client going away, or the time limit passing', async () => {
  // The production build of React throws (an uncaught exception); the development one logs it.
  const thrown: unknown[] = [];
  const onError = (error: unknown) => thrown.push(error);
  process.on('uncaughtException', onError);
  const logged = vi.spyOn(console, 'error').mockImplementation(() => undefined);
  try {
    const client = new AbortController();
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const response = await render(client.signal);
    await response.arrayBuffer();
    client.abort();
    vi.advanceTimersByTime(streamTimeout + 2000);
    await new Promise((resolve) => setImmediate(resolve));
    expect(thrown).toEqual([]);
    expect(logged).not.toHaveBeenCalled();
  } finally {
    process.off('uncaughtException', onError);
    logged.mockRestore();
  }
});
