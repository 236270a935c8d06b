/** POST /admin-only/logout: ends the admin session at the api and removes the cookie (docs/decisions/008-admin-sessions-and-secrets.md). */
import { redirect, type ActionFunctionArgs } from '@remix-run/node';
import { signOut } from '~/models/admin.server';
import { destroyAdminCookie, LOGIN_PATH, requireAdmin, sessionIdOf } from '~/models/session.server';

/** Signing out is a POST only (a link or prefetch must not sign anyone out). */
export function loader() {
  return redirect('/admin-only');
}

export async function action({ request, context }: ActionFunctionArgs) {
  const admin = await requireAdmin(request, context);
  await signOut(context, sessionIdOf(admin));
  return redirect(LOGIN_PATH, { status: 303, headers: { 'Set-Cookie': await destroyAdminCookie(context, admin) } });
}
