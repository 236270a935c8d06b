/**
 * `npm run admin:create` as an operator runs it: the built entry (build/admin-create.js, which
 * scripts/start.js runs; `npm run build` first, as `npm test` does) as a child process on a
 * temporary DATA_DIR, with the password piped on stdin.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { verify } from '@node-rs/argon2';
import { eq } from 'drizzle-orm';
import { openDatabase } from '../api/db/client';
import { adminUsers, auditLog } from '../api/db/schema';

const root = fileURLToPath(new URL('..', import.meta.url));
const dirs: string[] = [];

function tempDataDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'admin-create-'));
  dirs.push(dir);
  return dir;
}

type Run = { code: number | null; stdout: string; stderr: string };

/** Runs the script with `args`, DATA_DIR `dataDir` (embedded database) and `input` on stdin. */
function runScript(args: string[], dataDir: string, input: string) {
  return new Promise<Run>((resolve, reject) => {
    const child = spawn(process.execPath, ['build/admin-create.js', ...args], {
      cwd: root,
      env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: '' },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.on('error', reject);
    child.stdin.on('error', () => undefined); // EPIPE when the script exits before reading stdin
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(input);
  });
}

const PASSWORD = 'correct horse battery staple';
let dataDir: string;
let created: Run;
let tooShort: Run;

// The two runs that need no set-up go side by side (each child spends seconds starting up; the
// first open of a DATA_DIR initialises PGlite). The busy case reuses the created database.
beforeAll(async () => {
  dataDir = tempDataDir();
  [created, tooShort] = await Promise.all([
    runScript(['--username', 'Operator'], dataDir, `${PASSWORD}\n`),
    runScript(['--username', 'operator'], tempDataDir(), 'short\n'),
  ]);
});

afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

describe('npm run admin:create', () => {
  it('creates the admin from a piped password, stored as an Argon2id hash and audited', async () => {
    expect(created.stdout).toContain('Created admin operator.');
    expect(created.code).toBe(0);

    const database = await openDatabase({ dataDir });
    try {
      const [user] = await database.db.select().from(adminUsers).where(eq(adminUsers.username, 'operator'));
      expect(user).toBeDefined();
      expect(user.passwordHash).toMatch(/^\$argon2id\$/);
      // The one trailing newline is not part of the password.
      expect(await verify(user.passwordHash, PASSWORD)).toBe(true);
      expect(await verify(user.passwordHash, `${PASSWORD}\n`)).toBe(false);
      const audit = await database.db.select().from(auditLog);
      expect(audit).toMatchObject([{ actor: 'cli', action: 'admin-created', target: 'admin:operator' }]);
    } finally {
      await database.close();
    }
  });

  it('refuses a password shorter than 12 characters with the Korean message', () => {
    expect(tooShort.code).toBe(1);
    expect(tooShort.stderr).toContain('비밀번호는 12자 이상이어야 합니다.');
    expect(tooShort.stdout).not.toContain('Created admin');
  });

  it('names the process that holds the embedded database and exits 1', async () => {
    const held = await openDatabase({ dataDir });
    try {
      // A password that would be refused: the busy database is said first, before any password is read.
      const run = await runScript(['--username', 'operator'], dataDir, 'short\n');
      expect(run.code).toBe(1);
      expect(run.stderr).not.toContain('비밀번호는 12자 이상이어야 합니다.');
      expect(run.stderr).toContain(`held by the running server (pid ${process.pid})`);
      expect(run.stderr).toContain('Stop the server');
      expect(run.stderr).toContain('/admin-only/setup?token=');
      expect(run.stdout).not.toContain('Reset the password');
    } finally {
      await held.close();
    }
  });
});
