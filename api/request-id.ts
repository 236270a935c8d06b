/**
 * The id of each api request (docs/deploy.md §Logs): the web's (the id the phone was given, in
 * X-Request-Id), else a new one; answered in X-Request-Id, and named on the api's error lines
 * (requestIdOfCall).
 */
import type { Context, MiddlewareHandler } from 'hono';
import { requestIdOf } from '../lib/observability/logs';

const ids = new WeakMap<Request, string>();

/** The api is reached through the web (or a proxy of the operator's): its X-Request-Id is kept when a plain id. */
export const requestIds: MiddlewareHandler = async (c, next) => {
  const reqId = requestIdOf(c.req.header('x-request-id'), true);
  ids.set(c.req.raw, reqId);
  c.header('X-Request-Id', reqId);
  await next();
};

/** The id requestIds gave the call `c`. */
export function requestIdOfCall(c: Context): string | undefined {
  return ids.get(c.req.raw);
}
