/**
 * Object storage of the ad images (ARCHITECTURE.md, object store): local disk under DATA_DIR by
 * default, or any S3-compatible store (STORAGE=s3). Keys are chosen by the server (api/ads/images.ts):
 * `<adType>-<uuid>.<jpg|png|gif>`, flat, so they fit one URL path segment.
 */
import { createHmac, randomBytes } from 'node:crypto';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import type { ApiEnv } from '../env';
import { createLocalStore } from './local';

/** A stored object's metadata. */
export type StoredObject = { byteSize: number; contentType: string };

/** A stored object with its bytes, for GET /api/images/:key. */
export type ObjectBody = StoredObject & { body: Readable };

/** What a presigned PUT URL allows: one object, exactly `byteSize` bytes of `contentType`, until `expiresAt`. */
export type PutGrant = { key: string; contentType: string; byteSize: number; expiresAt: Date };

export interface ObjectStore {
  /**
   * A URL that accepts a PUT of the granted object until it expires. Absolute for S3; for the local
   * store a path of the api (`/api/uploads/<key>?…`, HMAC-signed) that the route resolves against
   * the request's origin.
   */
  presignPut(grant: PutGrant): Promise<string>;
  /**
   * The URL phones load the object from: `<S3_PUBLIC_BASE_URL>/<key>` when that is set, else the
   * web's same-origin `/images/<key>` (the web proxies GET /api/images/:key).
   */
  publicUrl(key: string): string;
  /** Metadata of `key`, or null when there is no such object. */
  head(key: string): Promise<StoredObject | null>;
  /** Up to the first `length` bytes of `key` (fewer when it is shorter), or null when there is no such object. */
  readStart(key: string, length: number): Promise<Uint8Array | null>;
  /** The object's bytes as a stream, or null when there is no such object. */
  get(key: string): Promise<ObjectBody | null>;
  /** Stores `bytes` as `key` (replacing any object there). */
  put(key: string, bytes: Uint8Array, contentType: string): Promise<void>;
  /** Deletes `key`; deleting a missing object is not an error. */
  delete(key: string): Promise<void>;
  /**
   * The grant a PUT to the api's `/api/uploads/<key>?<search>` carries, when its signature is valid
   * and it has not expired; null otherwise. Only the local store signs such URLs: S3 always
   * answers null (its presigned URLs go to S3, which checks them itself).
   */
  verifyPutUrl(key: string, search: URLSearchParams, now: Date): PutGrant | null;
}

/**
 * The object store of the configuration: STORAGE=local (files under `<DATA_DIR>/images`) or s3.
 * The local store's PUT URLs are signed with a key derived from API_SERVICE_TOKEN when it is set
 * (so every api instance of a deployment accepts them), else with a random key of this process.
 * The AWS SDK is loaded only for STORAGE=s3 (issue 11: it costs a start a fifth of a second).
 */
export async function openObjectStore(env: ApiEnv): Promise<ObjectStore> {
  if (env.STORAGE === 's3') {
    const { createS3Store } = await import('./s3');
    return createS3Store({
      bucket: env.S3_BUCKET ?? '',
      region: env.S3_REGION,
      endpoint: env.S3_ENDPOINT,
      forcePathStyle: env.S3_FORCE_PATH_STYLE,
      credentials:
        env.S3_ACCESS_KEY_ID && env.S3_SECRET_ACCESS_KEY
          ? { accessKeyId: env.S3_ACCESS_KEY_ID, secretAccessKey: env.S3_SECRET_ACCESS_KEY }
          : undefined,
      publicBaseUrl: env.S3_PUBLIC_BASE_URL,
    });
  }
  const signingKey = env.API_SERVICE_TOKEN
    ? createHmac('sha256', env.API_SERVICE_TOKEN).update('campus-bus local upload URLs').digest()
    : randomBytes(32);
  return createLocalStore({ dir: join(env.DATA_DIR, 'images'), signingKey });
}
