/**
 * Admin sign-in for the web's server (service token; issue 7): POST /api/admin/login, the session
 * check and sign-out (GET/DELETE /api/admin/session with the id in X-Admin-Session), and the first
 * admin's one-time setup (GET/POST /api/admin/setup). Sign-in attempts are limited per client IP and
 * per username (rate-limiter-flexible; a success clears the username's count), answering 429 with Retry-After.
 */
import { Hono, type Context } from 'hono';
import { HTTPException } from 'hono/http-exception';
import { RateLimiterRes } from 'rate-limiter-flexible';
import { LoginRequestSchema, SetupRequestSchema } from '../../contract/admin';
import { endSession, findSession, signIn } from '../admin/accounts';
import { completeSetup, isSetupTokenValid } from '../admin/setup';
import type { ApiContext } from '../context';
import { clientIp } from '../rate-limit';
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
      const ip = clientIp(c);
      // Every attempt spends a point of both limits before the password is checked, so parallel
      // attempts cannot all pass a read of the counters; a success gives the username's back.
      for (const [limiter, key] of [
        [rateLimiters.loginByIp, ip],
        [rateLimiters.loginByUsername, credentials.username],
      ] as const) {
        try {
          await limiter.consume(key);
        } catch (rejection) {
          if (!(rejection instanceof RateLimiterRes)) throw rejection;
          c.header('Retry-After', String(Math.ceil(rejection.msBeforeNext / 1000)));
          throw new HTTPException(429, { message: 'Too many sign-in attempts; try again later' });
        }
      }
      const session = await signIn(db, credentials, ip, clock.now());
      if (!session) throw new HTTPException(401, { message: 'Wrong username or password' });
      await rateLimiters.loginByUsername.delete(credentials.username);
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
    .get('/setup', async (c) => {
      const token = c.req.query('token') ?? '';
      if (!token || !(await isSetupTokenValid(db, token, clock.now()))) {
        throw new HTTPException(404, { message: 'No setup in progress' });
      }
      return c.json({ success: true });
    })
    .post('/setup', jsonBody(SetupRequestSchema), async (c) => {
      const session = await completeSetup(db, c.req.valid('json'), clock.now());
      if (!session) throw new HTTPException(404, { message: 'No setup in progress' });
      c.header('Cache-Control', 'no-store');
      return c.json(session, 201);
    });
}
