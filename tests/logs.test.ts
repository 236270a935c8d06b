/**
 * The logs as a process writes them when stdout is not a terminal (docs/deploy.md §Logs; built:
 * `npm run build`): one JSON object per line with level, time, msg and component; an error of a
 * request carries the id the client was given in X-Request-Id (a trusted proxy's own, else a new
 * one); the one-time setup link goes to an owner-only file, never into the log. (That no process
 * of the suite logs a secret it was given is checked at the suite's end: tests/setup/suite-logs.ts.)
 */
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort, runEntry, type EntryProcess } from './setup/process';

const SECRETS = {
  SESSION_SECRET: 'logs-test-session-secret-0123456789abcdef',
  API_SERVICE_TOKEN: 'logs-test-service-token-0123456789abcdef',
  KAKAO_SKILL_SECRET: 'logs-test-skill-secret-0123456789abcdef',
};

/** Each line of `output` as the JSON object it must be. */
const linesOf = (output: string) =>
  output
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as Record<string, unknown>);

describe('the logs of a process not on a terminal', () => {
  const running: EntryProcess[] = [];
  const dirs: string[] = [];
  afterEach(() => {
    for (const entry of running.splice(0)) entry.child.kill('SIGKILL');
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });
  /** The web alone, its api (API_BASE_URL) a closed port: every page's api call fails and is logged. */
  const webWithoutApi = async (env: Record<string, string> = {}) => {
    const port = await freePort();
    const web = runEntry('build/server.js', {
      PORT: String(port),
      API_BASE_URL: `http://127.0.0.1:${await freePort()}`,
      LOG_FORMAT: '',
      ...SECRETS,
      ...env,
    });
    running.push(web);
    await web.waitFor(/listening on/);
    return { web, url: `http://127.0.0.1:${port}` };
  };

  it('are JSON lines, and an error of a request names the id its client saw', async () => {
    const { web, url } = await webWithoutApi();
    const answer = await fetch(`${url}/faq`);
    await answer.arrayBuffer();
    const reqId = answer.headers.get('x-request-id');
    expect(reqId).toMatch(/^[0-9a-f-]{36}$/);
    await web.waitFor(/"component":"faq"/, 10_000);
    const lines = linesOf(web.output());
    for (const line of lines) {
      expect(line).toMatchObject({ level: expect.any(String), time: expect.any(String), msg: expect.any(String) });
    }
    expect(lines).toContainEqual(
      expect.objectContaining({ component: 'web', msg: expect.stringMatching(/listening on/) }),
    );
    expect(lines).toContainEqual(
      expect.objectContaining({
        level: 'error',
        component: 'faq',
        reqId,
        msg: expect.stringMatching(/^prediction accuracy unavailable/),
      }),
    );
  });

  it("takes a trusted proxy's X-Request-Id, and makes its own behind none", async () => {
    const behindProxy = await webWithoutApi({ TRUST_PROXY: '1' });
    const relayed = await fetch(`${behindProxy.url}/faq`, { headers: { 'X-Request-Id': 'edge-7f3a-42' } });
    await relayed.arrayBuffer();
    expect(relayed.headers.get('x-request-id')).toBe('edge-7f3a-42');
    await behindProxy.web.waitFor(/"reqId":"edge-7f3a-42"/, 10_000);

    const direct = await webWithoutApi();
    const own = await fetch(`${direct.url}/faq`, { headers: { 'X-Request-Id': 'forged-by-a-phone' } });
    await own.arrayBuffer();
    expect(own.headers.get('x-request-id')).not.toBe('forged-by-a-phone');
    // A line forged through the header is refused even from a trusted proxy.
    const forged = await fetch(`${behindProxy.url}/faq`, { headers: { 'X-Request-Id': 'a"} {"level":"error' } });
    await forged.arrayBuffer();
    expect(forged.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('name the file of the setup link, which only its owner reads, and never show the link', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'campus-bus-logs-'));
    dirs.push(dataDir);
    const web = runEntry('build/server.js', { PORT: String(await freePort()), DATA_DIR: dataDir, LOG_FORMAT: 'json' });
    running.push(web);
    await web.waitFor(/setup link is in/);
    const line = linesOf(web.output()).find((entry) => /setup link is in/.test(String(entry.msg)))!;
    const path = join(dataDir, 'setup-link.txt');
    expect(line.msg).toContain(path);
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(readFileSync(path, 'utf8')).toMatch(/\/admin-only\/setup\?token=[\w-]{16,}/);
    expect(web.output()).not.toContain('token=');
  });
});
