/**
 * The first admin's setup link for web route tests (app/ may not import api/): a fresh install's
 * state on the in-process api (no admin, a live one-time token), and the admins it then holds.
 */
import { sql } from 'drizzle-orm';
import { issueSetupToken } from '../../api/admin/setup';
import { adminUsers } from '../../api/db/schema';
import type { WebApi } from './web-api';

/**
 * Removes every admin (with their sessions) and the rate limits from `api`'s database, as on a fresh
 * install, and issues the setup link's token as a start would print it.
 * @returns the live token.
 */
export async function freshSetupToken(api: WebApi): Promise<string> {
  await api.db.execute(sql`TRUNCATE admin_sessions, admin_users, rate_limits RESTART IDENTITY CASCADE`);
  const token = await issueSetupToken(api.db, new Date());
  if (!token) throw new Error('freshSetupToken: an admin still exists');
  return token;
}

/** The usernames of the admins in `api`'s database. */
export async function adminUsernames(api: WebApi): Promise<string[]> {
  const rows = await api.db.select({ username: adminUsers.username }).from(adminUsers);
  return rows.map((row) => row.username);
}
