/** Ads operations of the upstream api (spec §7), one function per call. */
import type { AppLoadContext } from '@remix-run/node';
import { z } from 'zod';
import {
  AdBannerListResponseSchema,
  AdClickResponseSchema,
  AdSubmitResponseSchema,
  ImageUploadResponseSchema,
  type AdApplication,
  type AdBanner,
  type AdType,
  type ImageUploadRequest,
  type ImageUploadResponse,
} from '../../contract/ads';
import { UpstreamError, upstreamFetch, upstreamJson } from '~/utils/upstream.server';

/** The presigned PUT of an image up to 5 MB may take longer than a JSON call: 30 s. */
const UPLOAD_TIMEOUT_MS = 30_000;

/**
 * GET /api/web/ads: the banner list (spec §3 Ad banner), in the admins' order.
 * @throws UpstreamError when the api fails or answers off-contract.
 */
export async function getWebAds(context: AppLoadContext): Promise<AdBanner[]> {
  return (await upstreamJson(context, '/api/web/ads', AdBannerListResponseSchema)).data;
}

/**
 * POST /api/s3/presigned-url/image (spec §3 Image upload request): where to PUT the image and the
 * imageUrl the application will carry. Spec §5: an answer without both is an error.
 * @throws UpstreamError (status 429 when the phone is over its limit).
 */
export function requestImageUpload(context: AppLoadContext, request: ImageUploadRequest): Promise<ImageUploadResponse> {
  return upstreamJson(context, '/api/s3/presigned-url/image', ImageUploadResponseSchema, {
    method: 'POST',
    json: request,
  });
}

/**
 * PUT {presignedUrl} (spec §7): the file as body with its content type and exact length.
 * @throws UpstreamError on a non-2xx answer or a timeout (30 s).
 */
export async function uploadImage(
  context: AppLoadContext,
  presignedUrl: string,
  image: { bytes: Uint8Array<ArrayBuffer>; contentType: string },
): Promise<void> {
  const response = await upstreamFetch(context, presignedUrl, {
    method: 'PUT',
    body: image.bytes,
    headers: { 'Content-Type': image.contentType, 'Content-Length': String(image.bytes.byteLength) },
    timeoutMs: UPLOAD_TIMEOUT_MS,
  });
  await response.body?.cancel();
  if (!response.ok) throw new UpstreamError(`PUT image: HTTP ${response.status}`, response.status);
}

/**
 * POST /api/ads/{type}/submit (spec §7): stores the application as a pending request.
 * @returns the request's id when the api tells it (ours does; spec §7 shows no body).
 * @throws UpstreamError (status 400 with the api's message for a refused application, 429 over the limit).
 */
export async function submitAdApplication(
  context: AppLoadContext,
  type: AdType,
  application: AdApplication,
): Promise<number | undefined> {
  // Spec §7 shows no body: any 2xx is success; ours carries the id.
  const answer = await upstreamJson(context, `/api/ads/${type}/submit`, z.unknown(), {
    method: 'POST',
    json: application,
  });
  return AdSubmitResponseSchema.safeParse(answer).data?.id;
}

/**
 * POST /api/ads/{id}/impressions: counts one impression of a served ad today.
 * @returns false when the api does not serve such an ad (404).
 * @throws UpstreamError on any other failure.
 */
export async function recordAdImpression(context: AppLoadContext, id: number): Promise<boolean> {
  try {
    await upstreamJson(context, `/api/ads/${id}/impressions`, z.unknown(), { method: 'POST' });
    return true;
  } catch (error) {
    if (error instanceof UpstreamError && error.status === 404) return false;
    throw error;
  }
}

/**
 * POST /api/ads/{id}/clicks: counts one click of a served ad and answers its stored link.
 * @returns the link, or null when the api has no served ad with a link under `id` (404).
 * @throws UpstreamError on any other failure.
 */
export async function recordAdClick(context: AppLoadContext, id: number): Promise<string | null> {
  try {
    return (await upstreamJson(context, `/api/ads/${id}/clicks`, AdClickResponseSchema, { method: 'POST' }))
      .redirectUrl;
  } catch (error) {
    if (error instanceof UpstreamError && error.status === 404) return null;
    throw error;
  }
}

/**
 * GET /api/images/{key}: a stored image, as the api answers it (body stream and headers; 404 for
 * an unknown key).
 * @throws UpstreamError when the api cannot be reached.
 */
export function getImage(context: AppLoadContext, key: string): Promise<Response> {
  return upstreamFetch(context, `/api/images/${encodeURIComponent(key)}`);
}
