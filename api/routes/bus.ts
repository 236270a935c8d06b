/** Bus routes of spec §7. */
import { Hono } from 'hono';
import { timeLeftView } from '../bus/time-left';
import type { ApiDeps } from '../app';

export function busRoutes({ feed, clock }: ApiDeps) {
  return new Hono().get('/timeLeft', (c) => {
    c.header('Cache-Control', 'no-store');
    return c.json(timeLeftView(feed.current(), clock.now()));
  });
}
