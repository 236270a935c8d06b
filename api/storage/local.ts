/**
 * The local object store (STORAGE=local, the default): files under `<DATA_DIR>/images`, written
 * atomically (temp file, then rename). Its presigned PUT URLs point at the api's own
 * `PUT /api/uploads/<key>` and carry an HMAC-SHA256 signature over the key, content type, size and
 * expiry (api/routes/uploads.ts checks it with verifyPutUrl and accepts one PUT per grant).
 */
import { createHmac, randomUUID, timingSafeEqual } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdir, open, rename, rm, stat, writeFile } from 'node:fs/promises';
import { extname, join } from 'node:path';
import { IMAGE_CONTENT_TYPES, type ImageExtension } from '../../contract/ads';
import type { ObjectStore, PutGrant, StoredObject } from './types';

/** Keys are one path segment of safe characters (no slash, no leading dot): no path traversal. */
const SAFE_KEY = /^[A-Za-z0-9][A-Za-z0-9_-]*\.[a-z0-9]+$/;

/**
 * @param options.dir where the files live (created when missing).
 * @param options.signingKey HMAC key of the PUT URLs; every api instance that may receive the PUT
 *   must share it.
 */
export function createLocalStore(options: { dir: string; signingKey: Uint8Array }): ObjectStore {
  const { dir, signingKey } = options;
  const pathOf = (key: string) => {
    if (!SAFE_KEY.test(key)) throw new Error(`Unsafe object key: ${JSON.stringify(key)}`);
    return join(dir, key);
  };
  const sign = (grant: Omit<PutGrant, 'expiresAt'> & { expires: number }) =>
    createHmac('sha256', signingKey)
      .update([grant.key, grant.contentType, grant.byteSize, grant.expires].join('\n'))
      .digest('base64url');
  const headOf = async (key: string): Promise<StoredObject | null> => {
    if (!SAFE_KEY.test(key)) return null;
    const stats = await stat(pathOf(key)).catch(() => null);
    return stats?.isFile() ? { byteSize: stats.size, contentType: contentTypeOf(key) } : null;
  };

  return {
    async presignPut(grant) {
      const expires = Math.floor(grant.expiresAt.getTime() / 1000);
      const params = new URLSearchParams({
        contentType: grant.contentType,
        byteSize: String(grant.byteSize),
        expires: String(expires),
      });
      params.set('signature', sign({ ...grant, expires }));
      pathOf(grant.key); // throws on an unsafe key
      return `/api/uploads/${grant.key}?${params}`;
    },
    publicUrl: (key) => `/images/${key}`,
    head: headOf,
    async readStart(key, length) {
      if (!(await headOf(key))) return null;
      const file = await open(pathOf(key), 'r');
      try {
        const buffer = Buffer.alloc(length);
        const { bytesRead } = await file.read(buffer, 0, length, 0);
        return new Uint8Array(buffer.subarray(0, bytesRead));
      } finally {
        await file.close();
      }
    },
    async get(key) {
      const head = await headOf(key);
      return head ? { ...head, body: createReadStream(pathOf(key)) } : null;
    },
    async put(key, bytes) {
      const path = pathOf(key);
      await mkdir(dir, { recursive: true });
      const temp = join(dir, `.${randomUUID()}.part`);
      await writeFile(temp, bytes);
      await rename(temp, path);
    },
    async delete(key) {
      await rm(pathOf(key), { force: true });
    },
    verifyPutUrl(key, search, now) {
      const contentType = search.get('contentType');
      const byteSize = Number(search.get('byteSize'));
      const expires = Number(search.get('expires'));
      const signature = search.get('signature');
      if (!SAFE_KEY.test(key) || !contentType || !signature) return null;
      if (!Number.isSafeInteger(byteSize) || !Number.isSafeInteger(expires)) return null;
      const expected = Buffer.from(sign({ key, contentType, byteSize, expires }));
      const given = Buffer.from(signature);
      if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
      if (expires * 1000 <= now.getTime()) return null;
      return { key, contentType, byteSize, expiresAt: new Date(expires * 1000) };
    },
  };
}

/** The content type of a stored image by its key's extension (keys are chosen by the server). */
function contentTypeOf(key: string): string {
  return IMAGE_CONTENT_TYPES[extname(key).slice(1) as ImageExtension] ?? 'application/octet-stream';
}
