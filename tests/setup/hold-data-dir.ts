/**
 * A process that takes a DATA_DIR's lock as a server does (lockDataDir), for the tests of what a
 * crashed, frozen or live holder leaves to the next one. `tsx tests/setup/hold-data-dir.ts DIR`:
 * prints `locked` and holds the lock until killed; prints `busy <message>` and exits 2 when another
 * process holds it; prints `lost <message>` and exits 3 when the lock is lost while held. With
 * `--on-signal` it prints `ready` and tries only on SIGUSR2, so that several processes, sent the
 * signal one after another, try at the same moment.
 */
import { lockDataDir } from '../../api/db/data-dir-lock';

const dataDir = process.argv[2];
if (process.argv.includes('--on-signal')) {
  const waiting = setInterval(() => undefined, 60_000); // a pending signal alone keeps no process alive
  const go = new Promise((resolve) => process.once('SIGUSR2', resolve));
  console.log('ready');
  await go;
  clearInterval(waiting);
}
try {
  await lockDataDir(dataDir, (error) => {
    console.log(`lost ${error.message}`);
    process.exit(3);
  });
} catch (error) {
  console.log(`busy ${(error as Error).message}`);
  process.exit(2);
}
console.log('locked');
setInterval(() => undefined, 60_000);
