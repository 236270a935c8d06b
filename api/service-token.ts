/**
 * The guard of the api's admin endpoints (docs/product.md §6: admin endpoints require a service token
 * that only the web holds): `Authorization: Bearer <API_SERVICE_TOKEN>`.
 */
import type { Context, MiddlewareHandler } from 'hono';
import { HTTPException } from 'hono/http-exception';
import { ADMIN_USER_HEADER } from '../contract/admin';
import { secretCheck } from '../lib/hash';

/**
 * Hono middleware admitting only requests that carry `serviceToken` as a bearer token.
 * @throws HTTPException 503 while no token is configured, 401 (with WWW-Authenticate: Bearer) for a missing or wrong one.
 */
export function requireServiceToken(serviceToken: string | undefined): MiddlewareHandler {
  const isServiceToken = serviceToken ? secretCheck(serviceToken) : null;
  return async (c, next) => {
    if (!isServiceToken) throw new HTTPException(503, { message: 'Admin API disabled: API_SERVICE_TOKEN is not set' });
    const token = /^Bearer +(\S+)$/i.exec(c.req.header('Authorization') ?? '')?.[1];
    if (!token || !isServiceToken(token)) {
      c.header('WWW-Authenticate', 'Bearer');
      throw new HTTPException(401, { message: 'Unauthorized' });
    }
    await next();
  };
}

/**
 * The acting admin of a service-token request, for the audit log: the web names it in the
 * X-Admin-User header; a caller that does not gets 'service'.
 */
export function actorOf(c: Context): string {
  return c.req.header(ADMIN_USER_HEADER)?.trim().slice(0, 64) || 'service';
}
