/**
 * The S3 object store (STORAGE=s3): any S3-compatible service reached with AWS SDK v3. Uploads go
 * straight from the phone to S3 through presigned PUT URLs that sign the object's size and type, so
 * S3 itself refuses any other body; the api never sees those bytes.
 */
import { Readable } from 'node:stream';
import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  PutObjectCommand,
  S3Client,
  S3ServiceException,
} from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import type { ObjectBody, ObjectStore, PutGrant, StoredObject } from './types';

export type S3StoreOptions = {
  bucket: string;
  /** Signing region, e.g. 'us-east-1' (most S3-compatible services accept any). */
  region: string;
  /** Origin of an S3-compatible service, e.g. 'http://127.0.0.1:9000'; unset → AWS. */
  endpoint?: string;
  /** `<endpoint>/<bucket>/<key>` instead of `<bucket>.<endpoint>/<key>` (MinIO, most non-AWS services). */
  forcePathStyle: boolean;
  /** Unset → the SDK's default chain (environment, profile, instance role). */
  credentials?: { accessKeyId: string; secretAccessKey: string };
  /** Public origin (and path) objects are read from, e.g. a CDN; unset → the web's `/images/<key>`. */
  publicBaseUrl?: string;
  /** The clock presigned URLs are signed at (tests pass a past date); default the system clock. */
  now?: () => Date;
};

/** Headers a presigned PUT signs besides `host`: S3 refuses a body of another size or type. */
const SIGNED_PUT_HEADERS = new Set(['content-type', 'content-length']);

/**
 * An ObjectStore on one S3 bucket (kind 's3'). Creating it makes no request; a bad bucket, endpoint
 * or credentials show on the first call, which rejects with the SDK's error (S3ServiceException).
 * Every method rejects with the SDK's error on failure, except that a missing object answers null
 * (head, readStart, get) or is ignored (delete).
 */
export function createS3Store(options: S3StoreOptions): ObjectStore {
  const { bucket } = options;
  const now = options.now ?? (() => new Date());
  const client = new S3Client({
    region: options.region,
    endpoint: options.endpoint,
    forcePathStyle: options.forcePathStyle,
    credentials: options.credentials,
    // Newer SDKs otherwise add x-amz-checksum-* / x-amz-sdk-checksum-algorithm to presigned PUTs
    // (a checksum of the empty body), which a plain fetch PUT of the real bytes would fail.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });
  const publicBase = options.publicBaseUrl?.replace(/\/+$/, '');

  /** Size in bytes and Content-Type of `key`, or null when S3 answers 404. */
  async function head(key: string): Promise<StoredObject | null> {
    try {
      const output = await client.send(new HeadObjectCommand({ Bucket: bucket, Key: key }));
      return { byteSize: output.ContentLength ?? 0, contentType: output.ContentType ?? 'application/octet-stream' };
    } catch (error) {
      if (isNotFound(error)) return null;
      throw error;
    }
  }

  return {
    /**
     * A presigned PUT URL (absolute, on the S3 endpoint) for exactly `grant.byteSize` bytes of
     * `grant.contentType`: the client must send those two values as Content-Length and Content-Type.
     * Valid for the whole seconds until `grant.expiresAt` (at least 1 s). Rejects only when the
     * credentials cannot be resolved.
     */
    async presignPut(grant: PutGrant): Promise<string> {
      const signingDate = now();
      const expiresIn = Math.max(1, Math.floor((grant.expiresAt.getTime() - signingDate.getTime()) / 1000));
      const command = new PutObjectCommand({
        Bucket: bucket,
        Key: grant.key,
        ContentType: grant.contentType,
        ContentLength: grant.byteSize,
      });
      return getSignedUrl(client, command, { expiresIn, signingDate, signableHeaders: SIGNED_PUT_HEADERS });
    },

    publicUrl(key: string): string {
      return publicBase ? `${publicBase}/${key}` : `/images/${key}`;
    },

    head,

    /** The first `length` bytes (a ranged GET), fewer when the object is shorter; null when missing. */
    async readStart(key: string, length: number): Promise<Uint8Array | null> {
      if (length <= 0) return (await head(key)) ? new Uint8Array(0) : null;
      try {
        const output = await client.send(
          new GetObjectCommand({ Bucket: bucket, Key: key, Range: `bytes=0-${length - 1}` }),
        );
        if (!output.Body) return new Uint8Array(0);
        const bytes = await output.Body.transformToByteArray();
        // A service that ignores Range answers 200 with the whole object.
        return bytes.length > length ? bytes.subarray(0, length) : bytes;
      } catch (error) {
        if (isNotFound(error)) return null;
        // 416: the object exists but is empty.
        if (error instanceof S3ServiceException && error.$metadata.httpStatusCode === 416) return new Uint8Array(0);
        throw error;
      }
    },

    /** The object as a Node stream with its size in bytes and Content-Type; null when missing. */
    async get(key: string): Promise<ObjectBody | null> {
      try {
        const output = await client.send(new GetObjectCommand({ Bucket: bucket, Key: key }));
        const body = output.Body;
        if (!(body instanceof Readable)) throw new Error(`S3 GetObject ${key}: expected a Node stream body`);
        return {
          body,
          byteSize: output.ContentLength ?? 0,
          contentType: output.ContentType ?? 'application/octet-stream',
        };
      } catch (error) {
        if (isNotFound(error)) return null;
        throw error;
      }
    },

    /** PutObject of `bytes` (replacing any object at `key`). */
    async put(key: string, bytes: Uint8Array, contentType: string): Promise<void> {
      await client.send(
        new PutObjectCommand({
          Bucket: bucket,
          Key: key,
          Body: bytes,
          ContentType: contentType,
          ContentLength: bytes.byteLength,
        }),
      );
    },

    /** DeleteObject; a missing object is not an error (S3 answers 204 either way). */
    async delete(key: string): Promise<void> {
      try {
        await client.send(new DeleteObjectCommand({ Bucket: bucket, Key: key }));
      } catch (error) {
        if (isNotFound(error)) return;
        throw error;
      }
    },

    /** Always null: S3's presigned URLs go to S3, which checks them itself. */
    verifyPutUrl(): PutGrant | null {
      return null;
    },
  };
}

/** A 404 about the object (NotFound on HEAD, NoSuchKey on GET); a missing bucket is not "not found". */
function isNotFound(error: unknown): boolean {
  if (!(error instanceof S3ServiceException)) return false;
  if (error.name === 'NoSuchBucket') return false;
  return error.name === 'NotFound' || error.name === 'NoSuchKey' || error.$metadata.httpStatusCode === 404;
}
