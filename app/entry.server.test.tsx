/**
 * The document render (app/entry.server.tsx) with a page of Korean text long enough to cross React's
 * write buffers: the HTML carries no NUL byte, and nothing fires after the document is answered
 * (the client going away, or the render's time limit passing, once threw outside any request and
 * stopped the server).
 */
import type { EntryContext } from '@remix-run/node';

/** Departure lines as the home page renders them: numbers and Korean (3 bytes a character) in separate text nodes. */
const LINES = Array.from({ length: 400 }, (_, i) => [1150 + i, i % 60] as const);

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
