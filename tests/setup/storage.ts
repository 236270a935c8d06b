/** Object stores for tests: the real local store in a fresh temporary directory. */
import { randomBytes, randomUUID } from 'node:crypto';
import { rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createLocalStore } from '../../api/storage/local';
import type { ObjectStore } from '../../api/storage/types';

/** A local store in a new temporary directory (made on the first write); `remove()` deletes it. */
export function tempLocalStore(): ObjectStore & { dir: string; remove(): void } {
  const dir = join(tmpdir(), `campus-bus-images-${randomUUID()}`);
  return Object.assign(createLocalStore({ dir, signingKey: randomBytes(32) }), {
    dir,
    remove: () => rmSync(dir, { recursive: true, force: true }),
  });
}
