/**
 * Renders a document request. No route defers data, so the document is complete once React has
 * rendered everything (allReady, single fetch's inline data scripts included); it is then sent as
 * one body, which the compression middleware compresses in one go rather than per React chunk
 * (docs/benchmarks.md: the home page's requests/s). Its own scripts (React's, Remix's <Scripts>,
 * <ScrollRestoration> and single fetch's, the analytics) are rendered with a random marker as their
 * nonce (ScriptMarkerProvider, RemixServer's nonce): the marked inline scripts are hashed and the marker
 * removed (ownScripts), and the hashes go to the edge in SCRIPT_HASHES_HEADER for the CSP (ADR
 * 023), so the same bytes can serve many requests and no other script can run. The app stylesheet
 * is inlined in the head (StylesheetProvider, app/components/inline-stylesheet.tsx). The page is in
 * the request's language (I18nProvider, app/i18n/locale.server.ts; ADR 032). The scripts
 * that hydrate the page start after its first paint (hydrateAfterFirstPaint, ADR 026).
 *
 * NOTE: React 18.3's renderToPipeableStream (the Node build) cuts a multi-byte character at the
 * edge of its 2 KB write buffer and pads the gap with NUL bytes (a Korean page showed `1150\0\0번`;
 * in an attribute a NUL becomes U+FFFD, and hydration can mismatch). The web-streams build's
 * renderToReadableStream encodes whole strings and has no such edge, so the document is rendered
 * with it (Node 20 has web streams). app/entry.server.test.tsx and tests/attack-requests.test.ts
 * (every route of the build) check for NUL bytes.
 */
import { randomBytes } from 'node:crypto';
import type { EntryContext } from '@remix-run/node';
import { RemixServer } from '@remix-run/react';
import { renderToReadableStream } from 'react-dom/server.browser';
import { StylesheetProvider } from '~/components/inline-stylesheet';
import { ScriptMarkerProvider } from '~/components/script-marker-provider';
import appStyles from '~/styles/app.css';
import { ownScripts, SCRIPT_HASHES_HEADER } from '~/server/csp.server';
import { hydrateAfterFirstPaint } from '~/server/hydrate-after-paint.server';
import { stylesheetText } from '~/server/inline-stylesheet.server';
import { englishCatalog, I18nProvider } from '~/i18n/i18n';
import { localeOfRequest } from '~/i18n/locale.server';

/**
 * Single fetch (Remix v3_singleFetch) stops streaming promises not settled after this many
 * milliseconds; the render itself is aborted a second later.
 */
export const streamTimeout = 5_000;

/**
 * @returns the whole document (text/html), with `responseStatusCode`, or 500 when a part of the
 *   page failed after the shell rendered (the error is logged; the route's ErrorBoundary shows), and
 *   its own scripts' hash sources in SCRIPT_HASHES_HEADER.
 * @throws what the shell's render throws (Remix answers it with the root ErrorBoundary).
 */
export default async function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  remixContext: EntryContext,
) {
  let shellRendered = false;
  // The render stops when it takes too long or the client goes away. NOTE: React keeps its listener
  // on this signal after the render; aborted then, it closes a stream already closed and throws
  // outside any request, so the signal is let go of once the document is read.
  const render = new AbortController();
  const abort = () => render.abort();
  const timer = setTimeout(abort, streamTimeout + 1000);
  request.signal.addEventListener('abort', abort);
  const marker = randomBytes(18).toString('base64url');
  const locale = localeOfRequest(request);
  const english = locale === 'en' ? await englishCatalog() : null;
  try {
    const stream = await renderToReadableStream(
      <ScriptMarkerProvider value={marker}>
        <StylesheetProvider value={stylesheetText(appStyles)}>
          <I18nProvider locale={locale} english={english}>
            <RemixServer context={remixContext} url={request.url} nonce={marker} />
          </I18nProvider>
        </StylesheetProvider>
      </ScriptMarkerProvider>,
      {
        nonce: marker,
        signal: render.signal,
        onError(error: unknown) {
          responseStatusCode = 500;
          // An error before the shell is rendered rejects above; later ones are only logged here.
          if (shellRendered) console.error(error);
        },
      },
    );
    shellRendered = true;
    await stream.allReady;
    const { html, hashes } = ownScripts(hydrateAfterFirstPaint(await new Response(stream).text()), marker);
    responseHeaders.set('Content-Type', 'text/html; charset=utf-8');
    // The language follows the switch's cookie, else Accept-Language (locale.server.ts).
    responseHeaders.set('Content-Language', locale);
    responseHeaders.append('Vary', 'Accept-Language, Cookie');
    responseHeaders.set(SCRIPT_HASHES_HEADER, hashes.join(' '));
    return new Response(html, { headers: responseHeaders, status: responseStatusCode });
  } finally {
    clearTimeout(timer);
    request.signal.removeEventListener('abort', abort);
  }
}
