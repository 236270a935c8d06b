/**
 * GET /bus/time-left: the same-origin resource route the home screen refreshes from every
 * 4 seconds (spec §4, §9). Answers the contract's TimeLeftResponse JSON, or 502 `{ message }`
 * when the upstream api fails (spec §7: a bus fetch failure is only logged).
 * No ErrorBoundary here: with one, Remix would treat this module as a page, not a resource route.
 */
import type { ClientLoaderFunctionArgs } from '@remix-run/react';
import { json, type LoaderFunctionArgs } from '@remix-run/node';
import { getTimeLeft } from '~/models/bus.server';
import { BUS_LOAD_FAILED } from '~/utils/arrival';
import { UpstreamError } from '~/utils/upstream.server';

const NO_STORE = { 'Cache-Control': 'no-store' };

export async function loader({ context }: LoaderFunctionArgs) {
  try {
    return json(await getTimeLeft(context), { headers: NO_STORE });
  } catch (error) {
    if (!(error instanceof UpstreamError)) throw error;
    console.error('[bus/time-left] upstream failed:', error.message);
    return json({ message: BUS_LOAD_FAILED }, { status: 502, headers: NO_STORE });
  }
}

/**
 * In the browser, turns every failure of the call (offline, a thrown 5xx) into the same
 * `{ message }` answer as the 502, and logs it.
 */
// NOTE: without this a failed fetcher.load() would render the home route's ErrorBoundary and
// throw away the last good data, while spec §7 wants a refresh failure only logged.
export async function clientLoader({ serverLoader }: ClientLoaderFunctionArgs) {
  try {
    return await serverLoader<typeof loader>();
  } catch (error) {
    console.error('[bus/time-left] refresh failed:', error);
    return { message: BUS_LOAD_FAILED };
  }
}
