/**
 * The life of an ad image (docs/product.md §3.9 Image upload request, §7 presigned flow): the api issues a
 * presigned PUT for a key it chooses while the images fit IMAGE_STORAGE_MAX_MB, the object is
 * stored, its first bytes are sniffed (a mismatch deletes it), an application may then use its
 * imageUrl, and images no application or ad references are removed once ORPHAN_IMAGE_AGE_MS old, by a
 * sweep every ORPHAN_SWEEP_INTERVAL_MS (ADR 006, ADR 018). Each client address, and each network,
 * holds at most its own room of images that no ad and no approved application uses (ADR 027).
 */
import { createHmac, randomBytes, randomUUID } from 'node:crypto';
import { and, eq, isNotNull, lt, notInArray, sql, type SQL } from 'drizzle-orm';
import type { z } from 'zod';
import {
  IMAGE_CONTENT_TYPES,
  IMAGE_KEY_PATTERN,
  IMAGE_ROOM_FULL_MESSAGE,
  type AdType,
  type ImageExtension,
  type ImageUploadRequestSchema,
  type ImageUploadResponse,
} from '../../contract/ads';
import { UNPAID_APPLICATION_DAYS } from '../../contract/privacy';
import type { ClientKeys } from '../../lib/client-address';
import type { Clock } from '../clock';
import type { Db } from '../db/client';
import { adApplications, ads, imageUploads } from '../db/schema';
import type { Logger } from '../logger';
import { MB, READY_MIN_FREE_BYTES } from '../readiness';
import type { ObjectBody, ObjectStore } from '../storage/types';

/** Our own choice (docs/product.md sets none): a presigned URL works for 10 minutes. */
const UPLOAD_URL_TTL_SEC = 10 * 60;
/**
 * Images that no application or ad references are removed once this old (30 minutes after issue, in
 * ms): the web uploads an application's image and submits it in one request, so an image still
 * unreferenced after its URL's 10 minutes and 20 more was never submitted (ADR 018).
 */
export const ORPHAN_IMAGE_AGE_MS = 30 * 60 * 1000;
/**
 * How often each api instance sweeps the orphans (5 minutes, in ms): an image never submitted is
 * gone at most ORPHAN_IMAGE_AGE_MS + this = 35 minutes after issue (scheduleOrphanSweep).
 */
export const ORPHAN_SWEEP_INTERVAL_MS = 5 * 60 * 1000;
/** IMAGE_STORAGE_MAX_MB's default (1024 MB), in bytes. */
export const IMAGE_STORAGE_DEFAULT_BYTES = 1024 * MB;
/** The 507 of a presign over the storage budget or the disk's margin; the web shows its own words for it. */
export const STORAGE_FULL_MESSAGE = 'Image storage is full; try again later';
/**
 * The most one client address key (an IPv4 address, an IPv6 /64; lib/client-address.ts) may hold
 * in images that no ad and no approved application uses, issued in the last UNPAID_APPLICATION_DAYS
 * (25 MB, in bytes): five applications' images at their largest, what adSubmit lets an address send
 * in 10 minutes, so an applicant is never held by it, while a spammer's unpaid applications stop
 * filling IMAGE_STORAGE_MAX_MB for everyone at this much per address (ADR 027).
 */
export const CLIENT_IMAGE_ROOM_BYTES = 25 * MB;
/**
 * The same for a client's network (IPv4 /24, IPv6 /48): four addresses' room (100 MB), so that
 * filling the default IMAGE_STORAGE_MAX_MB takes a dozen networks at once.
 */
export const NETWORK_IMAGE_ROOM_BYTES = CLIENT_IMAGE_ROOM_BYTES * 4;
/** Bytes file-type needs to recognise any format it knows (its sample size). */
const SNIFF_BYTES = 4100;

/**
 * The image format of `bytes` by its magic numbers (the file-type package), if it is one the
 * product accepts: jpg, png or gif (docs/product.md §5). Anything else (SVG, text, WebP, HTML…) → null.
 */
export async function sniffImage(bytes: Uint8Array): Promise<ImageExtension | null> {
  // Loaded on the first upload, not at start: importing it would slow every start.
  const { fileTypeFromBuffer } = await import('file-type');
  const detected = await fileTypeFromBuffer(bytes);
  return detected && detected.ext in IMAGE_CONTENT_TYPES ? (detected.ext as ImageExtension) : null;
}

/** A refused upload, with the HTTP status the route answers. */
export class UploadRejected extends Error {
  constructor(
    readonly status: 400 | 403 | 409 | 413 | 415 | 429 | 507,
    message: string,
  ) {
    super(message);
    this.name = 'UploadRejected';
  }
}

/** Who asked for an upload, as image_uploads keeps it: pseudonyms of the client's address and network keys. */
export type UploaderMarks = { address: string; network: string };

/**
 * The pseudonyms of a client's keys (api/rate-limit.ts clientKeys): HMAC-SHA256 of each key under a
 * key derived from `secret`, 128 bits in base64url, so image_uploads never holds an address.
 * @param secret API_SERVICE_TOKEN, shared by every api instance; absent → a random key of this
 *   process (then a restart, or another instance, does not see the images uploaded before it as
 *   anyone's, and they do not count against a client's room).
 */
export function uploaderMarks(secret?: string): (client: ClientKeys) => UploaderMarks {
  const key = secret
    ? createHmac('sha256', secret).update('campus-bus image uploader marks').digest()
    : randomBytes(32);
  const mark = (kind: string, value: string) =>
    createHmac('sha256', key).update(`${kind}\n${value}`).digest().subarray(0, 16).toString('base64url');
  return (client) => ({ address: mark('address', client.address), network: mark('network', client.network) });
}

/**
 * Issues a presigned PUT for a new object named by the server: `<type>-<uuid>.<extension>`, while
 * the images fit the storage budget, the client's room and its network's, and the disk keeps its margin.
 * @param request already validated (contract ImageUploadRequestSchema: extension jpg/png/gif, byteSize ≤ 5 MB).
 * @param limits.maxStoredBytes IMAGE_STORAGE_MAX_MB in bytes (default IMAGE_STORAGE_DEFAULT_BYTES):
 *   the issue is refused when the bytes of every upload issued and not yet removed (the sum of
 *   image_uploads.byte_size, so it holds across restarts and instances) plus this image's would
 *   exceed it.
 * @param limits.freeDiskBytes reads the bytes free on DATA_DIR's disk, when the api keeps data
 *   there: the issue is refused when this image would leave less than READY_MIN_FREE_BYTES (256 MB).
 * @param limits.uploader the client asking (uploaderMarks), kept with the upload: the issue is
 *   refused when the images its address, or its network, holds (heldBy) plus this one would exceed
 *   CLIENT_IMAGE_ROOM_BYTES, or NETWORK_IMAGE_ROOM_BYTES. Absent → no client's room is checked
 *   (a caller that serves no client).
 * @returns the presigned URL (for the local store a path of this api) and the imageUrl the
 *   application will carry.
 * @throws UploadRejected 429 (IMAGE_ROOM_FULL_MESSAGE) when refused for the client's room, else 507
 *   (STORAGE_FULL_MESSAGE) when refused for the storage's or the disk's: nothing is issued.
 *   What `freeDiskBytes` throws.
 */
export async function issueImageUpload(
  db: Db,
  store: ObjectStore,
  request: z.output<typeof ImageUploadRequestSchema>,
  now: Date,
  limits: { maxStoredBytes?: number; freeDiskBytes?: () => Promise<number>; uploader?: UploaderMarks } = {},
): Promise<ImageUploadResponse> {
  const { maxStoredBytes = IMAGE_STORAGE_DEFAULT_BYTES, freeDiskBytes, uploader } = limits;
  if (freeDiskBytes && (await freeDiskBytes()) - request.byteSize < READY_MIN_FREE_BYTES) {
    throw new UploadRejected(507, STORAGE_FULL_MESSAGE);
  }
  const key = `${request.type}-${randomUUID()}.${request.extension}`;
  const contentType = IMAGE_CONTENT_TYPES[request.extension];
  const expiresAt = new Date(now.getTime() + UPLOAD_URL_TTL_SEC * 1000);
  const imageUrl = store.publicUrl(key);
  // NOTE: one statement, so the budget is checked against the rows as they are when this one is
  // written; every row counts, whatever its status, until the orphan sweep removes it (an upload
  // that went straight to S3 stays 'issued' until an application confirms it, expired or not).
  // Presigns running at the same instant on PostgreSQL may each pass: over by at most their 5 MB each.
  const withinRoom = uploader
    ? sql`and ${heldBy('uploader', uploader.address, now)} + ${request.byteSize} <= ${CLIENT_IMAGE_ROOM_BYTES}
        and ${heldBy('uploader_network', uploader.network, now)} + ${request.byteSize} <= ${NETWORK_IMAGE_ROOM_BYTES}`
    : sql``;
  const issued = await db
    .insert(imageUploads)
    .select(
      sql`select ${key}, ${imageUrl}, ${request.type}, ${contentType}, ${request.byteSize}::int, 'issued',
        ${now.toISOString()}::timestamptz, ${expiresAt.toISOString()}::timestamptz,
        ${uploader?.address ?? null}::text, ${uploader?.network ?? null}::text
        where (select coalesce(sum(${imageUploads.byteSize}), 0) from ${imageUploads}) + ${request.byteSize}
          <= ${maxStoredBytes} ${withinRoom}`,
    )
    .returning({ key: imageUploads.key });
  if (issued.length === 0) {
    if (uploader && (await overClientRoom(db, uploader, request.byteSize, now))) {
      throw new UploadRejected(429, IMAGE_ROOM_FULL_MESSAGE);
    }
    throw new UploadRejected(507, STORAGE_FULL_MESSAGE);
  }
  const presignedUrl = await store.presignPut({ key, contentType, byteSize: request.byteSize, expiresAt });
  return { presignedUrl, imageUrl };
}

/**
 * The bytes (an SQL bigint) of the images whose `column` is `mark` that the client holds: issued
 * within UNPAID_APPLICATION_DAYS before `now` (older marks are blanked by the retention job, and an
 * unpaid application is gone by then) and used by no ad and no approved application: orphans not yet
 * swept, and the images of pending (unpaid) and rejected applications.
 */
function heldBy(column: 'uploader' | 'uploader_network', mark: string, now: Date): SQL {
  const since = new Date(now.getTime() - UNPAID_APPLICATION_DAYS * 86_400_000);
  return sql`(select coalesce(sum(held.byte_size), 0) from ${imageUploads} held
    where held.${sql.identifier(column)} = ${mark} and held.issued_at >= ${since.toISOString()}::timestamptz
      and not exists (select 1 from ${ads} where ${ads.imageUrl} = held.image_url)
      and not exists (select 1 from ${adApplications}
        where ${adApplications.imageUrl} = held.image_url and ${adApplications.status} = 'approved'))`;
}

/** Whether `uploader`'s address, or its network, has no room left for `byteSize` more bytes (heldBy). */
async function overClientRoom(db: Db, uploader: UploaderMarks, byteSize: number, now: Date): Promise<boolean> {
  const [held] = await db
    .select({
      address: sql`${heldBy('uploader', uploader.address, now)}`.mapWith(Number),
      network: sql`${heldBy('uploader_network', uploader.network, now)}`.mapWith(Number),
    })
    .from(sql`(select 1) as one`);
  return held.address + byteSize > CLIENT_IMAGE_ROOM_BYTES || held.network + byteSize > NETWORK_IMAGE_ROOM_BYTES;
}

/**
 * Receives the one PUT a local presigned URL allows: a valid, unexpired signature; the signed
 * content type; exactly the signed size; bytes that sniff as the key's own type. A refused body is
 * never stored, and the grant is spent either way (a replay gets 409).
 * @param readBody reads the request body, resolving null once it exceeds `maxBytes`.
 * @throws UploadRejected (403 bad or expired signature, 409 replay, 415 type, 400/413 size).
 */
export async function receiveImagePut(
  db: Db,
  store: ObjectStore,
  put: {
    key: string;
    search: URLSearchParams;
    contentType: string | undefined;
    readBody: (maxBytes: number) => Promise<Uint8Array | null>;
    now: Date;
  },
): Promise<void> {
  const grant = store.verifyPutUrl(put.key, put.search, put.now);
  if (!grant) throw new UploadRejected(403, 'Invalid or expired upload URL');
  if (put.contentType?.split(';')[0].trim().toLowerCase() !== grant.contentType) {
    throw new UploadRejected(415, `Content-Type must be ${grant.contentType}`);
  }
  const [claimed] = await db
    .update(imageUploads)
    .set({ status: 'receiving' })
    .where(and(eq(imageUploads.key, grant.key), eq(imageUploads.status, 'issued')))
    .returning({ key: imageUploads.key });
  if (!claimed) throw new UploadRejected(409, 'This upload URL was already used');
  try {
    const body = await put.readBody(grant.byteSize);
    if (body === null) throw new UploadRejected(413, `The body exceeds the signed ${grant.byteSize} bytes`);
    if (body.byteLength !== grant.byteSize) {
      throw new UploadRejected(400, `The body has ${body.byteLength} bytes, not the signed ${grant.byteSize}`);
    }
    if ((await sniffImage(body.subarray(0, SNIFF_BYTES))) !== extensionOf(grant.key)) {
      throw new UploadRejected(415, 'The bytes are not the declared image type');
    }
    await store.put(grant.key, body, grant.contentType);
    await db.update(imageUploads).set({ status: 'stored' }).where(eq(imageUploads.key, grant.key));
  } catch (error) {
    await db.delete(imageUploads).where(eq(imageUploads.key, grant.key));
    throw error;
  }
}

/**
 * Whether `imageUrl` is an image this api issued for an ad of `type` and that is stored. An upload
 * that went straight to the object store (S3) is checked here the first time: it must exist with
 * the signed size and sniff as its declared type, else the object and its record are deleted.
 * @returns 'stored' when an application may use it; 'not-an-image' when its bytes were refused
 *   (now deleted); 'unknown' when it was not issued for `type`, not uploaded, or is gone.
 */
export async function confirmStoredImage(
  db: Db,
  store: ObjectStore,
  imageUrl: string,
  type: AdType,
): Promise<'stored' | 'not-an-image' | 'unknown'> {
  const [upload] = await db.select().from(imageUploads).where(eq(imageUploads.imageUrl, imageUrl));
  if (!upload || upload.adType !== type) return 'unknown';
  if (upload.status === 'stored') return (await store.head(upload.key)) ? 'stored' : 'unknown';
  if (upload.status !== 'issued') return 'unknown';
  const head = await store.head(upload.key);
  if (!head) return 'unknown';
  const start = await store.readStart(upload.key, SNIFF_BYTES);
  if (head.byteSize !== upload.byteSize || !start || (await sniffImage(start)) !== extensionOf(upload.key)) {
    await store.delete(upload.key);
    await db.delete(imageUploads).where(eq(imageUploads.key, upload.key));
    return 'not-an-image';
  }
  await db.update(imageUploads).set({ status: 'stored' }).where(eq(imageUploads.key, upload.key));
  return 'stored';
}

/**
 * Stored image `key` with its bytes, for GET /api/images/:key; null when the key is not of the
 * shape this api issues (checked before the database: a NUL byte there is a 500), when its upload
 * is not stored (only issued, still being received, or unknown), or when the object is gone.
 */
export async function openStoredImage(db: Db, store: ObjectStore, key: string): Promise<ObjectBody | null> {
  if (!IMAGE_KEY_PATTERN.test(key)) return null;
  const [upload] = await db.select({ status: imageUploads.status }).from(imageUploads).where(eq(imageUploads.key, key));
  return upload?.status === 'stored' ? store.get(key) : null;
}

/**
 * Removes the images issued more than ORPHAN_IMAGE_AGE_MS before `now` that no ad application and no
 * ad references (abandoned forms, failed uploads, replaced ad images): the object, then its record.
 * @returns how many were removed.
 */
export function removeOrphanImages(db: Db, store: ObjectStore, now: Date): Promise<number> {
  return deleteUnreferencedImages(db, store, lt(imageUploads.issuedAt, new Date(now.getTime() - ORPHAN_IMAGE_AGE_MS)));
}

/**
 * Runs removeOrphanImages every ORPHAN_SWEEP_INTERVAL_MS (5 minutes) of real time, at the clock's
 * `now`, in every api instance (each may have issued uploads to its own disk); the first run is one
 * interval after the call. A failed run is logged and tried again at the next.
 * @returns the function that stops it.
 */
export function scheduleOrphanSweep(deps: { db: Db; storage: ObjectStore; clock: Clock; logger: Logger }): () => void {
  const sweep = async () => {
    try {
      const removed = await removeOrphanImages(deps.db, deps.storage, deps.clock.now());
      if (removed > 0) deps.logger.info(`[images] removed ${removed} images no application or ad uses.`);
    } catch (error) {
      deps.logger.error('[images] run failed:', error);
    }
  };
  const timer = setInterval(() => void sweep(), ORPHAN_SWEEP_INTERVAL_MS).unref();
  return () => clearInterval(timer);
}

/**
 * Deletes the images among `which` (a condition on image_uploads) that no ad application and no ad
 * references: the object, then its record. Shared by the orphan sweep and the privacy erasure
 * (api/privacy/application-images.ts).
 * @returns how many were deleted.
 * @throws what the database or the object store throws (what is left is deleted by a later sweep).
 */
export async function deleteUnreferencedImages(db: Db, store: ObjectStore, which: SQL): Promise<number> {
  const applied = db.select({ imageUrl: adApplications.imageUrl }).from(adApplications);
  const shown = db.select({ imageUrl: ads.imageUrl }).from(ads).where(isNotNull(ads.imageUrl));
  const unreferenced = await db
    .select({ key: imageUploads.key })
    .from(imageUploads)
    .where(and(which, notInArray(imageUploads.imageUrl, applied), notInArray(imageUploads.imageUrl, shown)));
  for (const { key } of unreferenced) {
    await store.delete(key);
    await db.delete(imageUploads).where(eq(imageUploads.key, key));
  }
  return unreferenced.length;
}

/** The extension of a server-chosen key (`web-<uuid>.png` → png). */
function extensionOf(key: string): string {
  return key.slice(key.lastIndexOf('.') + 1);
}
