/**
 * The object store's interface (api/storage/index.ts opens one): what the ad images are kept in,
 * the local disk (local.ts) or an S3-compatible store (s3.ts). Keys are chosen by the server
 * (api/ads/images.ts): `<adType>-<uuid>.<jpg|png|gif>`, flat, so they fit one URL path segment.
 */
import type { Readable } from 'node:stream';

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
