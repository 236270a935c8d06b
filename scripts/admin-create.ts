/**
 * `npm run admin:create -- --username NAME`: creates admin NAME, or resets NAME's password and signs
 * their sessions out. The password is read from stdin when it is not a terminal (the whole
 * input, one trailing newline stripped: `printf '%s' "$PW" | npm run admin:create -- --username NAME`),
 * otherwise asked twice without echo. Both are checked with the contract's schemas (AdminUsernameSchema,
 * NewPasswordSchema). The database is the api's (DATABASE_URL, or PGlite under DATA_DIR), migrated
 * on open; the change is audited with the actor 'cli'. Exits 1 on any refusal, 2 on an unknown option.
 *
 * NOTE: the embedded PGlite database belongs to one process (api/db/data-dir-lock.ts): while the
 * server runs on DATA_DIR this command is refused and says which pid holds it. PostgreSQL has no such limit.
 */
import { stdin, stdout } from 'node:process';
import { createInterface } from 'node:readline/promises';
import { Writable } from 'node:stream';
import { AdminUsernameSchema, NewPasswordSchema } from '../contract/admin';
import { createOrResetAdmin } from '../api/admin/accounts';
import { openDatabase } from '../api/db/client';
import { DataDirBusyError } from '../api/db/data-dir-lock';
import { parseApiEnv, type ApiEnv } from '../api/env';
import { parseCli } from './cli';

const USAGE = 'Usage: npm run admin:create -- --username NAME   (the password from stdin, or asked for twice)';

/** Prints `message` on stderr and ends the process with exit code 1. */
function fail(message: string): never {
  console.error(message);
  process.exit(1);
}

/** All of a piped stdin as UTF-8, without its one trailing newline ("\n" or "\r\n"). */
async function readPipedPassword(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stdin) chunks.push(Buffer.from(chunk));
  return Buffer.concat(chunks)
    .toString('utf8')
    .replace(/\r?\n$/, '');
}

/** Asks for the password twice on the terminal; what is typed is not echoed. */
async function promptPassword(): Promise<string> {
  let muted = false;
  // readline echoes what is typed to its output: this output drops everything while muted.
  const output = new Writable({
    write(chunk, encoding, callback) {
      if (!muted) stdout.write(chunk, encoding);
      callback();
    },
  });
  const terminal = createInterface({ input: stdin, output, terminal: true });
  terminal.on('SIGINT', () => {
    stdout.write('\n');
    process.exit(130);
  });
  const ask = async (prompt: string) => {
    muted = false;
    const answer = terminal.question(prompt); // writes the prompt now, then waits for Enter
    muted = true;
    const typed = await answer;
    stdout.write('\n');
    return typed;
  };
  try {
    const password = await ask('Password: ');
    const again = await ask('Password again: ');
    if (password !== again) fail('비밀번호가 서로 다릅니다.');
    return password;
  } finally {
    terminal.close();
  }
}

/** What to do when the server holds the embedded database. */
function busyMessage(env: ApiEnv, error: DataDirBusyError): string {
  const holder = error.holderPid
    ? `the running server (pid ${error.holderPid})`
    : 'another process (the running server?)';
  return [
    `The embedded database in DATA_DIR (${env.DATA_DIR}) is held by ${holder}.`,
    'Stop the server, run this command again, then start the server.',
    'On a fresh install you can instead open the one-time setup link the server printed at start',
    '(/admin-only/setup?token=…, valid for 1 hour).',
    'With PostgreSQL (DATABASE_URL) this command works while the server runs.',
  ].join('\n');
}

const args = parseCli(USAGE, { username: { type: 'string', short: 'u' } });
const username = AdminUsernameSchema.safeParse(args.username);
if (!username.success) fail(`${username.error.issues[0].message}\n${USAGE}`);

let env: ApiEnv;
try {
  env = parseApiEnv();
} catch (error) {
  fail((error as Error).message);
}

let database: Awaited<ReturnType<typeof openDatabase>>;
try {
  database = await openDatabase({ url: env.DATABASE_URL, dataDir: env.DATA_DIR });
} catch (error) {
  if (error instanceof DataDirBusyError) fail(busyMessage(env, error));
  throw error;
}

// Asked once the database is ours, so nobody types a password for a command that cannot run.
const password = NewPasswordSchema.safeParse(stdin.isTTY ? await promptPassword() : await readPipedPassword());
if (!password.success) {
  await database.close();
  fail(password.error.issues[0].message);
}

try {
  const created = await createOrResetAdmin(
    database.db,
    { username: username.data, password: password.data },
    'cli',
    new Date(),
  );
  console.log(
    created
      ? `Created admin ${username.data}.`
      : `Reset the password of admin ${username.data}; their sessions were signed out.`,
  );
} finally {
  await database.close();
}
