/**
 * The origin check of every request at the edge (app/utils/csrf.server.ts has the rule; docs/deploy.md
 * §Request bodies and origins): writes come from this site's pages only, but on a server-to-server
 * path. It runs before Remix, whose own check of document POSTs would throw a cross-site one as a 500.
 */
import type express from 'express';
import { hostOf } from '~/server/express-request.server';
import type { UnreadAnswer } from '~/server/request-bodies.server';
import { CROSS_SITE_MESSAGE, isAllowedWrite } from '~/utils/csrf.server';

/** What a write from another site is told. */
export const CROSS_SITE: UnreadAnswer = {
  status: 403,
  contentType: 'text/plain; charset=utf-8',
  body: CROSS_SITE_MESSAGE,
};

/**
 * Whether `req` (read as express reads it) is a write this site takes on `path` (its own path
 * unless given): from this site's pages, or on a server-to-server path.
 */
export const allowsWrite = (req: express.Request, path = req.path) =>
  isAllowedWrite(
    req.method,
    path,
    (name) => req.get(name),
    () => hostOf(req),
  );
