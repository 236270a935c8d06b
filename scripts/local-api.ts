/**
 * A call to the running server that holds DATA_DIR, for the operators' commands (npm run backtest,
 * gbis:discover): the embedded database belongs to that one process, so a command asks its api over
 * the local socket DATA_DIR/api.sock (api/runtime.ts LOCAL_API_SOCKET, owner-only) with the service
 * token, API_SERVICE_TOKEN or the one kept under DATA_DIR.
 */
import { request as httpRequest } from 'node:http';
import { join } from 'node:path';
import { setTimeout } from 'node:timers/promises';
import { z } from 'zod';
import { LOCAL_API_SOCKET } from '../api/runtime';
import { storedSecret } from '../lib/secrets';
import { ADMIN_USER_HEADER } from '../contract/admin';

/**
 * How long (ms) a command waits for the running server's local socket: the server answers pages
 * before its api has opened the socket (ADR 025), so a command run just after a start finds none yet.
 */
export const LOCAL_SOCKET_WAIT_MS = 30_000;
/** How often (ms) the socket is tried again meanwhile. */
const LOCAL_SOCKET_RETRY_MS = 250;

/** The socket's errors that mean "not open yet": no file, or nobody listening on it. */
const notOpenYet = (error: unknown) => ['ENOENT', 'ECONNREFUSED'].includes((error as NodeJS.ErrnoException).code ?? '');

/**
 * `method path` (with a JSON `body`) on the api of the server running on `env.DATA_DIR`, as `actor`.
 * While the socket is not open yet (the server is starting), tries again for LOCAL_SOCKET_WAIT_MS.
 * @returns the answer's JSON.
 * @throws Error "the running server answered <status>: <its message>" on a non-2xx answer, or the
 *   socket's error when no server listens within LOCAL_SOCKET_WAIT_MS.
 */
export async function askRunningServer(
  env: { DATA_DIR: string; API_SERVICE_TOKEN?: string },
  call: { method: 'GET' | 'POST' | 'PUT'; path: string; body?: unknown; actor?: string },
): Promise<unknown> {
  const until = performance.now() + LOCAL_SOCKET_WAIT_MS;
  for (;;) {
    try {
      return await askOnce(env, call);
    } catch (error) {
      if (!notOpenYet(error) || performance.now() >= until) throw error;
      await setTimeout(LOCAL_SOCKET_RETRY_MS);
    }
  }
}

/** askRunningServer's one try. */
async function askOnce(
  env: { DATA_DIR: string; API_SERVICE_TOKEN?: string },
  call: { method: 'GET' | 'POST' | 'PUT'; path: string; body?: unknown; actor?: string },
): Promise<unknown> {
  const token = env.API_SERVICE_TOKEN ?? storedSecret(env.DATA_DIR, 'API_SERVICE_TOKEN');
  const { status, text } = await new Promise<{ status: number; text: string }>((resolve, reject) => {
    const request = httpRequest(
      {
        socketPath: join(env.DATA_DIR, LOCAL_API_SOCKET),
        method: call.method,
        path: call.path,
        headers: {
          authorization: `Bearer ${token}`,
          'content-type': 'application/json',
          ...(call.actor ? { [ADMIN_USER_HEADER]: call.actor } : {}),
        },
      },
      (response) => {
        let body = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => (body += chunk));
        response.on('end', () => resolve({ status: response.statusCode ?? 0, text: body }));
      },
    );
    request.once('error', reject);
    request.end(call.body === undefined ? undefined : JSON.stringify(call.body));
  });
  const answer: unknown = JSON.parse(text);
  if (status < 200 || status > 299) {
    const message = z.object({ message: z.string() }).safeParse(answer).data?.message ?? text;
    throw new Error(`the running server answered ${status}: ${message}`);
  }
  return answer;
}
