/**
 * Ad image uploads (docs/product.md §3.9 Image upload request, §7): POST /api/s3/presigned-url/image issues a
 * presigned PUT (spending from the same per-address budget as the submit it leads to, and only
 * while the images fit IMAGE_STORAGE_MAX_MB: 507 otherwise, ADR 018; and the client's own room of
 * images of undecided applications: 429 otherwise, ADR 027); PUT /api/uploads/:key
 * receives the local store's one signed PUT; GET /api/images/:key serves a stored image (the web
 * exposes it at /images/:key, ADR 005).
 */
import { Readable } from 'node:stream';
import { Hono } from 'hono';
import { HTTPException } from 'hono/http-exception';
import { ImageUploadRequestSchema, type ImageUploadResponse } from '../../contract/ads';
import { issueImageUpload, openStoredImage, receiveImagePut, uploaderMarks, UploadRejected } from '../ads/images';
import type { ApiContext } from '../context';
import { readBodyUpTo } from '../../lib/http-body';
import { failureLog } from '../../lib/failure-log';
import { clientKeys, rateLimit } from '../rate-limit';
import { jsonBody } from '../validate';

/** Stored images never change (their keys are new UUIDs): cached for a year. */
const IMAGE_CACHE = 'public, max-age=31536000, immutable';

/**
 * Mounts the upload routes; needs the database, the object store, the clock, the rate limiters,
 * the storage budget, the data disk's free space (when the api keeps data on a local disk) and the
 * service token (the key of the uploaders' pseudonyms).
 */
export function uploadRoutes({
  db,
  storage,
  clock,
  logger,
  rateLimiters,
  imageStorageMaxBytes,
  dataDirFreeBytes,
  serviceToken,
}: ApiContext) {
  const uploaderOf = uploaderMarks(serviceToken);
  // A full store refuses every applicant until an operator acts: said once per run, and its end.
  const full = failureLog(logger, {
    failing: `[images] presigns refused with 507: the images reach IMAGE_STORAGE_MAX_MB or DATA_DIR's disk its margin.`,
    recovered: '[images] presigns issued again.',
  });
  return new Hono()
    .post(
      '/s3/presigned-url/image',
      rateLimit(rateLimiters.adApplication),
      jsonBody(ImageUploadRequestSchema),
      async (c) => {
        let issued: ImageUploadResponse;
        try {
          issued = await issueImageUpload(db, storage, c.req.valid('json'), clock.now(), {
            maxStoredBytes: imageStorageMaxBytes,
            freeDiskBytes: dataDirFreeBytes,
            uploader: uploaderOf(clientKeys(c)),
          });
        } catch (error) {
          if (!(error instanceof UploadRejected)) throw error;
          // A client over its own room is that client's refusal, not a full store.
          if (error.status === 507) full.fail();
          throw new HTTPException(error.status, { message: error.message });
        }
        full.ok();
        // The local store signs a path of this api: absolute against the URL the caller used.
        const body: ImageUploadResponse = { ...issued, presignedUrl: new URL(issued.presignedUrl, c.req.url).href };
        c.header('Cache-Control', 'no-store');
        return c.json(body);
      },
    )
    .put('/uploads/:key', async (c) => {
      try {
        await receiveImagePut(db, storage, {
          key: c.req.param('key'),
          search: new URL(c.req.url).searchParams,
          contentType: c.req.header('Content-Type'),
          readBody: (maxBytes) => readBodyUpTo(c.req.raw, maxBytes),
          now: clock.now(),
        });
      } catch (error) {
        if (error instanceof UploadRejected) throw new HTTPException(error.status, { message: error.message });
        throw error;
      }
      return c.body(null, 204);
    })
    .get('/images/:key', async (c) => {
      const object = await openStoredImage(db, storage, c.req.param('key'));
      if (!object) throw new HTTPException(404, { message: 'No such image' });
      return c.body(Readable.toWeb(object.body) as ReadableStream, 200, {
        'Content-Type': object.contentType,
        'Content-Length': String(object.byteSize),
        'Cache-Control': IMAGE_CACHE,
        'X-Content-Type-Options': 'nosniff',
        'Content-Security-Policy': "default-src 'none'; sandbox",
      });
    });
}
