/**
 * The document render (app/entry.server.tsx) with a page of Korean text long enough to cross React's
 * write buffers: the HTML carries no NUL byte, and nothing fires after the document is answered
 * (the client going away, or the render's time limit passing, once threw outside any request and
 * stopped the server).
 */
import { createHash } from 'node:crypto';
import type { EntryContext } from '@remix-run/node';
import { useNonce } from '~/components/nonce-provider';
import { SCRIPT_HASHES_HEADER } from '~/utils/csp.server';

/** Departure lines as the home page renders them: numbers and Korean (3 bytes a character) in separate text nodes. */
const LINES = Array.from({ length: 400 }, (_, i) => [1150 + i, i % 60] as const);

/** A script rendered as Remix's are: with the nonce of the render (NonceProvider). */
function ScriptWithNonce() {
  const nonce = useNonce();
  return <script nonce={nonce} dangerouslySetInnerHTML={{ __html: 'window.__remixContext = {};' }} />;
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
      {/* As Remix's <Scripts> renders its context script (with the nonce it is given), and markup that is not the app's. */}
      <ScriptWithNonce />
      <div dangerouslySetInnerHTML={{ __html: '<script>window.__injected = 1;</script>' }} />
      {/* As Remix's <Scripts> renders its preloads. */}
      <link rel="modulepreload" href="/build/entry.client-AB12.js" />
      <link rel="modulepreload" href="/build/_shared/chunk-CD34.js" crossOrigin="anonymous" />
    </>
  ),
}));
vi.mock('~/utils/inline-stylesheet.server', () => ({ stylesheetText: () => 'main{}' }));

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
  // Only the script rendered with the marker: the other one (as if injected) has no hash.
  expect(response.headers.get(SCRIPT_HASHES_HEADER)).toBe(sha256('window.__remixContext = {};'));
});

it('asks for the scripts that hydrate the page at low priority, after the document and its images', async () => {
  const html = await (await render()).text();
  expect(html).toContain('<link rel="modulepreload" fetchpriority="low" href="/build/entry.client-AB12.js"/>');
  expect(html).toContain(
    '<link rel="modulepreload" fetchpriority="low" href="/build/_shared/chunk-CD34.js" crossorigin="anonymous"/>',
  );
  expect(html.match(/rel="modulepreload"/g)).toHaveLength(2);
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
