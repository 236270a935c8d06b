/**
 * GET /bus/predicted?route=all|1150|1117|1303|1005: the same-origin resource route the expected
 * departure times modal loads from with JavaScript (docs/product.md §4: on open and on every filter change).
 * Answers TimesAnswer JSON: the times, or `{ route, message }` with the docs/product.md §8 failure text and
 * status 400 (not a filter option), 404 (the api does not know the route) or 502 (the api failed).
 * No ErrorBoundary here: with one, Remix would treat this module as a page, not a resource route.
 */
import type { ClientLoaderFunctionArgs } from '@remix-run/react';
import { json, type HeadersFunction, type LoaderFunctionArgs } from '@remix-run/node';
import { parseRouteFilter, TIMES_LOAD_FAILED, type TimesAnswer } from '~/utils/departure-times';
import { loadTimes } from '~/models/departure-times.server';

const NO_STORE = { 'Cache-Control': 'no-store' };

export async function loader({ request, context }: LoaderFunctionArgs) {
  const route = parseRouteFilter(new URL(request.url).searchParams.get('route'));
  if (route === undefined) {
    return json<TimesAnswer>({ route: null, message: TIMES_LOAD_FAILED }, { status: 400, headers: NO_STORE });
  }
  const { answer, status } = await loadTimes(context, route);
  return json<TimesAnswer>(answer, { status, headers: NO_STORE });
}

// Single fetch answers the dialog's fetcher through /bus/predicted.data: its headers come from here.
export const headers: HeadersFunction = ({ loaderHeaders }) => loaderHeaders;

/**
 * In the browser, turns a failed call (offline, a thrown 5xx) into the same `{ route, message }`
 * answer as the server's failures, and logs it.
 */
// NOTE: without this a failed fetcher.load() would render the home route's ErrorBoundary.
export async function clientLoader({ request, serverLoader }: ClientLoaderFunctionArgs): Promise<TimesAnswer> {
  try {
    return await serverLoader<typeof loader>();
  } catch (error) {
    console.error('[bus/predicted] load failed:', error);
    return {
      route: parseRouteFilter(new URL(request.url).searchParams.get('route')) ?? null,
      message: TIMES_LOAD_FAILED,
    };
  }
}
