/**
 * The status link of a just-taken ad application, carried across the form's post/redirect/get as
 * the Epic Stack carries its toasts: a short-lived cookie (Remix createCookie) signed with the
 * web's SESSION_SECRET (context.admin.sessionSecret, which server.ts always passes), set on the
 * action's redirect and read once, then cleared, by the page's loader. The token never goes into a
 * URL, where a history entry, a log line or a Referer would keep it.
 */
import { randomBytes } from 'node:crypto';
import { createCookie, type AppLoadContext } from '@remix-run/node';
import { z } from 'zod';

/** How long the link waits for the page after the redirect: 10 minutes, in seconds. */
const MAX_AGE_SEC = 10 * 60;

/**
 * NOTE: the secret without the admin binding, one per process. Only route tests run so (server.ts
 * always passes admin.sessionSecret); a link set before a restart is then not shown.
 */
const PROCESS_SECRET = randomBytes(32).toString('hex');

const StatusLinkSchema = z.object({ statusToken: z.string().min(1), emailed: z.boolean() });
/** The status token of the application just taken, and whether the api e-mailed the link too. */
export type StatusLink = z.infer<typeof StatusLinkSchema>;

function statusLinkCookie(context: AppLoadContext) {
  return createCookie('__campus_ad_status_link', {
    httpOnly: true,
    sameSite: 'lax',
    secure: context.admin?.secureCookie ?? false,
    // /ads/apply and its single-fetch data request /ads/apply.data, which a Path of /ads/apply
    // would not match (a cookie path matches only at a "/").
    path: '/ads',
    maxAge: MAX_AGE_SEC,
    secrets: [context.admin?.sessionSecret ?? PROCESS_SECRET],
  });
}

/** The Set-Cookie header that carries `link` to the page the action redirects to. */
export function setStatusLink(context: AppLoadContext, link: StatusLink): Promise<string> {
  return statusLinkCookie(context).serialize(link);
}

/**
 * The status link waiting for this page (now spent), and the headers that spend it: a Set-Cookie
 * that clears it, and `Cache-Control: no-store` (the page then holds a secret link).
 * @returns link null and no headers without a cookie, or with one that is unsigned, expired or malformed.
 */
export async function takeStatusLink(
  context: AppLoadContext,
  request: Request,
): Promise<{ link: StatusLink | null; headers: HeadersInit }> {
  const cookie = statusLinkCookie(context);
  const parsed = StatusLinkSchema.safeParse(await cookie.parse(request.headers.get('Cookie')));
  if (!parsed.success) return { link: null, headers: {} };
  return {
    link: parsed.data,
    headers: { 'Set-Cookie': await cookie.serialize('', { maxAge: 0 }), 'Cache-Control': 'no-store' },
  };
}
