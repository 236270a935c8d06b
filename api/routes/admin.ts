/**
 * Admin api (/api/admin/*), for the web's server side only (ARCHITECTURE.md: admin endpoints require
 * a service token that only the web holds): `Authorization: Bearer <API_SERVICE_TOKEN>`.
 * Unset token → 503 on every route; missing or wrong token → 401.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import { Hono } from 'hono';
import { HTTPException } from 'hono/http-exception';
import { validator } from 'hono/validator';
import { z } from 'zod';
import { backtest } from '../bus/backtest';
import { HISTORY_WINDOW_DAYS } from '../bus/predictions';
import { addServiceDays } from '../time';
import { serviceClock } from '../time';
import type { ApiContext } from '../context';

const BacktestQuerySchema = z.object({ days: z.coerce.number().int().min(1).max(HISTORY_WINDOW_DAYS).default(14) });

/** Constant-time comparison of two secrets of any lengths (their SHA-256 digests are compared). */
function sameSecret(given: string, expected: string): boolean {
  const digest = (value: string) => createHash('sha256').update(value).digest();
  return timingSafeEqual(digest(given), digest(expected));
}

/** Mounts the bearer-token guard and GET /backtest; needs the clock, the history loader and the service token. */
export function adminRoutes({ clock, history, serviceToken }: ApiContext) {
  return new Hono()
    .use(async (c, next) => {
      if (!serviceToken) throw new HTTPException(503, { message: 'Admin API disabled: API_SERVICE_TOKEN is not set' });
      const token = /^Bearer +(\S+)$/i.exec(c.req.header('Authorization') ?? '')?.[1];
      if (!token || !sameSecret(token, serviceToken)) {
        c.header('WWW-Authenticate', 'Bearer');
        throw new HTTPException(401, { message: 'Unauthorized' });
      }
      await next();
    })
    .get(
      '/backtest',
      validator('query', (query) => {
        const parsed = BacktestQuerySchema.safeParse(query);
        if (!parsed.success) {
          throw new HTTPException(400, { message: `days: a whole number from 1 to ${HISTORY_WINDOW_DAYS}` });
        }
        return parsed.data;
      }),
      async (c) => {
        const { days } = c.req.valid('query');
        const today = serviceClock(clock.now()).serviceDate;
        const records = await history({
          fromDate: addServiceDays(today, -(days + HISTORY_WINDOW_DAYS)),
          toDate: addServiceDays(today, -1),
        });
        // NOTE: CPU-bound, ~40 ms per day evaluated on the demo history (days ≤ 35 keeps it short).
        c.header('Cache-Control', 'no-store');
        return c.json(backtest(records, { days, before: today }));
      },
    );
}
