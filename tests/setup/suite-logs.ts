/**
 * vitest's global setup: a directory where every process the tests start keeps its output and the
 * secrets it was given (tests/setup/process.ts runEntry), and, once the suite ends, the check that
 * no line of that output shows a secret, or the one-time setup link (docs/deploy.md §Logs).
 * @throws at the suite's end, naming the process logs that show one (the run then fails).
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** What a log line may never carry besides the secrets themselves: a setup link's token. */
const SETUP_LINK = /admin-only\/setup\?token=[\w-]{8,}/;

export function setup(): () => void {
  const dir = mkdtempSync(join(tmpdir(), 'campus-bus-test-logs-'));
  process.env.TEST_LOGS_DIR = dir;
  return () => {
    const leaks = readdirSync(dir)
      .filter((name) => name.endsWith('.secrets.json'))
      .flatMap((name) => {
        const secrets = JSON.parse(readFileSync(join(dir, name), 'utf8')) as string[];
        const logName = name.replace('.secrets.json', '.log');
        let output = '';
        try {
          output = readFileSync(join(dir, logName), 'utf8');
        } catch {
          return []; // it wrote nothing
        }
        const shown = secrets.filter((secret) => output.includes(secret));
        if (SETUP_LINK.test(output)) shown.push('a setup link');
        return shown.length ? [`${logName}: ${shown.map((secret) => `${secret.slice(0, 4)}…`).join(', ')}`] : [];
      });
    rmSync(dir, { recursive: true, force: true });
    if (leaks.length) throw new Error(`Secrets in the processes' logs:\n${leaks.join('\n')}`);
  };
}
