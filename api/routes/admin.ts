/**
 * Admin api (/api/admin/*), for the web's server side only (ARCHITECTURE.md: admin endpoints require
 * a service token that only the web holds): `Authorization: Bearer <API_SERVICE_TOKEN>`.
 * Unset token → 503 on every route; missing or wrong token → 401.
 */
import { Hono } from 'hono';
import { HTTPException } from 'hono/http-exception';
import { validator } from 'hono/validator';
import { z } from 'zod';
import { backtest } from '../bus/backtest';
import { HISTORY_WINDOW_DAYS } from '../bus/predictions';
import { addServiceDays } from '../time';
import { serviceClock } from '../time';
import type { ApiContext } from '../context';
import { requireServiceToken } from '../service-token';

const BacktestQuerySchema = z.object({ days: z.coerce.number().int().min(1).max(HISTORY_WINDOW_DAYS).default(14) });

/** Mounts the bearer-token guard and GET /backtest; needs the clock, the history loader and the service token. */
export function adminRoutes({ clock, history, serviceToken }: ApiContext) {
  return new Hono().use(requireServiceToken(serviceToken)).get(
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
