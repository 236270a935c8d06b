/**
 * The admin session: Remix's cookie session storage, signed with SESSION_SECRET,
 * HttpOnly, SameSite=Lax, Secure in production, 12 hours, on path / (single fetch asks for the
 * dashboard's data at /admin-only.data, outside /admin-only/). The cookie holds
 * the api's opaque session id alone; every admin request asks the api whether that session is still
 * live, so a signed-out (or reset) session is refused even if its cookie was copied. The same
 * cookie carries one-shot flash messages across post/redirect/get.
 */
import { createCookieSessionStorage, redirect, type AppLoadContext, type Session } from '@remix-run/node';
import type { AdminSession } from '../../contract/admin';
import { findAdminSession } from '~/models/admin.server';
import { assertSameOrigin } from '~/utils/csrf.server';

/** What server.ts gives the admin pages: the api's service token and the session's signing secret. */
export type AdminBinding = { serviceToken: string; sessionSecret: string; secureCookie: boolean };

declare module '@remix-run/node' {
  interface AppLoadContext {
    /** Absent → the admin pages answer 503 (the web was started without admin secrets). */
    admin?: AdminBinding;
  }
}

/** The session lasts 12 hours (the api's session ends at the same time). */
const SESSION_MAX_AGE_SEC = 12 * 60 * 60;
export const ADMIN_HOME = '/admin-only';
export const LOGIN_PATH = '/admin-only/login';

/**
 * A one-shot message shown once after a redirect: `tone` success or error, its text, and a title
 * when the page shows it as a dialog to acknowledge (docs/product.md §2 'Completed / Deleted').
 */
export type Flash = { tone: 'success' | 'error'; message: string; title?: string };
type SessionData = { sessionId: string };
type FlashData = { flash: Flash };
type AdminCookieSession = Session<SessionData, FlashData>;

const storages = new Map<string, ReturnType<typeof createStorage>>();

function createStorage(binding: AdminBinding) {
  return createCookieSessionStorage<SessionData, FlashData>({
    cookie: {
      // Renamed with its path: a browser still holding the old cookie on /admin-only would send
      // that one first there, and its sign-in could never take.
      name: '__campus_admin_session',
      httpOnly: true,
      sameSite: 'lax',
      secure: binding.secureCookie,
      path: '/',
      maxAge: SESSION_MAX_AGE_SEC,
      secrets: [binding.sessionSecret],
    },
  });
}

/** @throws Response 503 when the web runs without the admin binding. */
function storageOf(context: AppLoadContext) {
  const binding = context.admin;
  if (!binding) throw new Response('관리자 기능이 설정되지 않았습니다.', { status: 503 });
  const key = `${binding.sessionSecret}\n${binding.secureCookie}`;
  let storage = storages.get(key);
  if (!storage) storages.set(key, (storage = createStorage(binding)));
  return storage;
}

/** The signed-in admin of a request, and the cookie session (for flash messages). */
export type Admin = { username: string; session: AdminCookieSession };

/**
 * The guard of every /admin-only route but login and setup: checks the Origin of a mutating
 * request, then the session with the api.
 * @throws Response 403 for a cross-site POST; a redirect to the login page (coming back to this
 *   page afterwards) without a live session, clearing a dead cookie.
 */
export async function requireAdmin(request: Request, context: AppLoadContext): Promise<Admin> {
  assertSameOrigin(request);
  const { admin, session, sessionId } = await liveSession(request, context);
  if (admin) return admin;
  const url = new URL(request.url);
  const back = request.method === 'GET' ? `${url.pathname}${url.search}` : url.pathname;
  throw redirect(`${LOGIN_PATH}?${new URLSearchParams({ redirectTo: back })}`, {
    headers: sessionId ? { 'Set-Cookie': await storageOf(context).destroySession(session) } : {},
  });
}

/** The username of a live session on `request`, or null (the login page sends a signed-in admin on). */
export async function currentAdmin(request: Request, context: AppLoadContext): Promise<string | null> {
  return (await liveSession(request, context)).admin?.username ?? null;
}

/** The cookie session of `request` and, when the api says its id is live, the signed-in admin. */
async function liveSession(request: Request, context: AppLoadContext) {
  const session = await storageOf(context).getSession(request.headers.get('Cookie'));
  const sessionId = session.get('sessionId');
  const live = sessionId ? await findAdminSession(context, sessionId) : null;
  const admin: Admin | null = live ? { username: live.username, session } : null;
  return { admin, session, sessionId };
}

/**
 * Where to go after sign-in: `to` when it is a page under /admin-only on this site, else the admin
 * home. A control character (CR, LF, NUL…) or a backslash anywhere sends home too: the URL parser
 * would drop or rewrite it, so what it checked would not be what the Location header says.
 * @returns a path with its query and fragment, percent-encoded as the URL parser writes it (a
 *   header can carry it as it is).
 */
export function safeRedirectTo(to: FormDataEntryValue | string | null): string {
  // eslint-disable-next-line no-control-regex
  if (typeof to !== 'string' || !to.startsWith(ADMIN_HOME) || /[\u0000-\u001f\u007f\\]/.test(to)) {
    return ADMIN_HOME;
  }
  const { pathname, search, hash } = new URL(to, 'http://x');
  return pathname === ADMIN_HOME || pathname.startsWith(`${ADMIN_HOME}/`) ? `${pathname}${search}${hash}` : ADMIN_HOME;
}

/** Stores the api's new session in a fresh cookie and redirects to `redirectTo` (303). */
export async function startAdminSession(
  context: AppLoadContext,
  opened: Pick<AdminSession, 'sessionId'>,
  redirectTo: string,
) {
  const storage = storageOf(context);
  const session = await storage.getSession();
  session.set('sessionId', opened.sessionId);
  return redirect(redirectTo, {
    status: 303,
    // The cookie's own Max-Age (12 h) bounds it; the api ends the session at the same time by its clock.
    headers: { 'Set-Cookie': await storage.commitSession(session) },
  });
}

/** The Set-Cookie header that removes the admin cookie. */
export async function destroyAdminCookie(context: AppLoadContext, admin: Admin): Promise<string> {
  return storageOf(context).destroySession(admin.session);
}

/** The admin's session id (for sign-out). */
export function sessionIdOf(admin: Admin): string {
  return admin.session.get('sessionId') ?? '';
}

/** Redirects (303) to `to` with a one-shot `flash` message. */
export async function redirectWithFlash(context: AppLoadContext, admin: Admin, to: string, flash: Flash) {
  admin.session.flash('flash', flash);
  return redirect(to, {
    status: 303,
    headers: { 'Set-Cookie': await storageOf(context).commitSession(admin.session) },
  });
}

/** The flash message waiting for this page (now spent), and the Set-Cookie header that spends it. */
export async function takeFlash(
  context: AppLoadContext,
  admin: Admin,
): Promise<{ flash: Flash | null; headers: HeadersInit }> {
  const flash = admin.session.get('flash') ?? null;
  if (!flash) return { flash: null, headers: {} };
  return { flash, headers: { 'Set-Cookie': await storageOf(context).commitSession(admin.session) } };
}
