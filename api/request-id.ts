/**
 * The id of each api request (docs/deploy.md §Logs): the web's (the id the phone was given, in
 * X-Request-Id over HTTP, or the request being answered in-process), else a new one; answered in
 * X-Request-Id, and the `reqId` of every line logged while answering.
 */
import type { MiddlewareHandler } from 'hono';
import { currentRequestId, requestIdOf, withRequestId } from '../lib/observability/logs';

/** The api is reached through the web (or a proxy of the operator's): its X-Request-Id is trusted when a plain id. */
export const requestIds: MiddlewareHandler = async (c, next) => {
  const reqId = currentRequestId() ?? requestIdOf(c.req.header('x-request-id'), true);
  c.header('X-Request-Id', reqId);
  await withRequestId(reqId, next);
};
