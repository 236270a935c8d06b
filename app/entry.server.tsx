/**
 * Renders a document request. No route defers data, so the document is complete once React has
 * rendered everything (onAllReady, single fetch's inline data scripts included); it is then sent as
 * one body, which the compression middleware compresses in one go rather than per React chunk
 * (issue 11: the home page's requests/s, docs/benchmarks.md). The per-request CSP nonce
 * (AppLoadContext.cspNonce, set by server.ts) reaches React's inline scripts, single fetch's data
 * scripts (RemixServer's nonce) and, through NonceProvider, Remix's <Scripts>. The app stylesheet
 * is inlined in the head (StylesheetProvider, app/components/inline-stylesheet.tsx).
 */
import { PassThrough } from 'node:stream';
import { buffer } from 'node:stream/consumers';
import type { AppLoadContext, EntryContext } from '@remix-run/node';
import { RemixServer } from '@remix-run/react';
import { renderToPipeableStream } from 'react-dom/server';
import { StylesheetProvider } from '~/components/inline-stylesheet';
import { NonceProvider } from '~/components/nonce-provider';
import appStyles from '~/styles/app.css';
import { stylesheetText } from '~/utils/inline-stylesheet.server';

/**
 * Single fetch (Remix v3_singleFetch) stops streaming promises not settled after this many
 * milliseconds; the render itself is aborted a second later.
 */
export const streamTimeout = 5_000;

export default function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  remixContext: EntryContext,
  loadContext: AppLoadContext,
) {
  const nonce = loadContext.cspNonce;
  return new Promise<Response>((resolve, reject) => {
    let shellRendered = false;
    const { pipe, abort } = renderToPipeableStream(
      <NonceProvider value={nonce}>
        <StylesheetProvider value={stylesheetText(appStyles)}>
          <RemixServer context={remixContext} url={request.url} nonce={nonce} />
        </StylesheetProvider>
      </NonceProvider>,
      {
        nonce,
        onShellReady() {
          shellRendered = true;
        },
        onAllReady() {
          clearTimeout(timer);
          const body = new PassThrough();
          pipe(body);
          buffer(body).then((html) => {
            responseHeaders.set('Content-Type', 'text/html; charset=utf-8');
            resolve(new Response(html, { headers: responseHeaders, status: responseStatusCode }));
          }, reject);
        },
        onShellError(error: unknown) {
          clearTimeout(timer);
          reject(error);
        },
        onError(error: unknown) {
          responseStatusCode = 500;
          // An error before the shell is rendered rejects above; later ones are only logged here.
          if (shellRendered) console.error(error);
        },
      },
    );
    // NOTE: React calls the callbacks above asynchronously, after this line has run.
    const timer = setTimeout(abort, streamTimeout + 1000);
  });
}
