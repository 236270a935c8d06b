/**
 * Admin sign-in for the web's server (service token; docs/decisions/008-admin-sessions-and-secrets.md): POST /api/admin/login,
 * the session check and sign-out (GET/DELETE /api/admin/session with the id in X-Admin-Session),
 * and the first admin's one-time setup (GET/POST /api/admin/setup). Sign-in failures are limited
 * per username and client address, and per address (429 with Retry-After), and slow a username
 * down past a ceiling from everywhere without refusing it (api/admin/sign-in-limits.ts). The setup
 * is limited per client address (429 with Retry-After).
 */
import { Hono, type Context } from 'hono';
import { HTTPException } from 'hono/http-exception';
import { LoginRequestSchema, SetupRequestSchema } from '../../contract/admin';
import { endSession, findSession, signIn } from '../admin/accounts';
import { completeSetup, isSetupTokenValid } from '../admin/setup';
import { reserveSignInAttempt } from '../admin/sign-in-limits';
import type { ApiContext } from '../context';
import { clientKeys, rateLimit } from '../rate-limit';
import { jsonBody } from '../validate';

/** The header the web sends the session id in (never in a URL, which logs keep). */
const SESSION_HEADER = 'X-Admin-Session';

/** Mounts the sign-in routes; the caller puts them behind the service token. */
export function adminAuthRoutes({ db, clock, rateLimiters }: ApiContext) {
  const sessionIdOf = (c: Context) => {
    const id = c.req.header(SESSION_HEADER);
    if (!id || id.length > 100) throw new HTTPException(404, { message: 'No such session' });
    return id;
  };
  return new Hono()
    .post('/login', jsonBody(LoginRequestSchema), async (c) => {
      const credentials = c.req.valid('json');
      const client = clientKeys(c);
      const attempt = await reserveSignInAttempt(rateLimiters, credentials.username, client);
      if (attempt.refused) {
        c.header('Retry-After', String(attempt.retryAfterSec));
        throw new HTTPException(429, { message: 'Too many sign-in attempts; try again later' });
      }
      if (attempt.delayMs > 0) await new Promise<void>((resolve) => clock.after(attempt.delayMs, resolve));
      const session = await signIn(db, credentials, client.ip, clock.now());
      if (!session) throw new HTTPException(401, { message: 'Wrong username or password' });
      await attempt.succeeded();
      c.header('Cache-Control', 'no-store');
      return c.json(session);
    })
    .get('/session', async (c) => {
      const session = await findSession(db, sessionIdOf(c), clock.now());
      if (!session) throw new HTTPException(404, { message: 'No such session' });
      c.header('Cache-Control', 'no-store');
      return c.json(session);
    })
    .delete('/session', async (c) => {
      await endSession(db, sessionIdOf(c), clock.now());
      return c.body(null, 204);
    })
    .get('/setup', rateLimit(rateLimiters.adminSetup), async (c) => {
      const token = c.req.query('token') ?? '';
      if (!token || !(await isSetupTokenValid(db, token, clock.now()))) {
        throw new HTTPException(404, { message: 'No setup in progress' });
      }
      return c.json({ success: true });
    })
    .post('/setup', rateLimit(rateLimiters.adminSetup), jsonBody(SetupRequestSchema), async (c) => {
      const session = await completeSetup(db, c.req.valid('json'), clock.now());
      if (!session) throw new HTTPException(404, { message: 'No setup in progress' });
      c.header('Cache-Control', 'no-store');
      return c.json(session, 201);
    });
}
