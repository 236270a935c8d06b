/** GET /api/notice: the service-suspension notice the home screen shows (docs/product.md §1, §4), public. */
import { Hono } from 'hono';
import type { ApiContext } from '../context';

export function noticeRoutes({ pageReads }: ApiContext) {
  return new Hono().get('/notice', async (c) => {
    c.header('Cache-Control', 'no-store');
    return c.json(await pageReads.notice.get());
  });
}
