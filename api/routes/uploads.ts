/**
 * Ad image uploads (spec §3 Image upload request, §7): POST /api/s3/presigned-url/image issues a
 * presigned PUT; PUT /api/uploads/:key receives the local store's one signed PUT; GET
 * /api/images/:key serves a stored image (the web exposes it at /images/:key, ADR 005).
 */
import { Readable } from 'node:stream';
import { eq } from 'drizzle-orm';
import { Hono } from 'hono';
import { HTTPException } from 'hono/http-exception';
import { IMAGE_KEY_PATTERN, ImageUploadRequestSchema, type ImageUploadResponse } from '../../contract/ads';
import { issueImageUpload, receiveImagePut, UploadRejected } from '../ads/images';
import type { ApiContext } from '../context';
import { imageUploads } from '../db/schema';
import { readBodyUpTo } from '../http-body';
import { rateLimit } from '../rate-limit';
import { jsonBody } from '../validate';

/** Stored images never change (their keys are new UUIDs): cached for a year. */
const IMAGE_CACHE = 'public, max-age=31536000, immutable';

/** Mounts the upload routes; needs the database, the object store, the clock and the rate limiters. */
export function uploadRoutes({ db, storage, clock, rateLimiters }: ApiContext) {
  return new Hono()
    .post(
      '/s3/presigned-url/image',
      rateLimit(rateLimiters.imageUpload),
      jsonBody(ImageUploadRequestSchema),
      async (c) => {
        const issued = await issueImageUpload(db, storage, c.req.valid('json'), clock.now());
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
      const key = c.req.param('key');
      // Only keys of the shape this api issues reach the database (a NUL byte there is a 500).
      if (!IMAGE_KEY_PATTERN.test(key)) throw new HTTPException(404, { message: 'No such image' });
      const [upload] = await db
        .select({ status: imageUploads.status })
        .from(imageUploads)
        .where(eq(imageUploads.key, key));
      const object = upload?.status === 'stored' ? await storage.get(key) : null;
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
