/** Ads operations of the upstream api (docs/product.md §7), one function per call. */
import type { AppLoadContext } from '@remix-run/node';
import { z } from 'zod';
import {
  AdBannerListResponseSchema,
  AdClickResponseSchema,
  AdminResponseSchema,
  AdApplicationDetailResponseSchema,
  AdApplicationListResponseSchema,
  AdStatusSchema,
  AdSubmitResponseSchema,
  IMAGE_CONTENT_TYPES,
  ImageUploadResponseSchema,
  ManagedAdListResponseSchema,
  type AdApplication,
  type AdBanner,
  type AdEdit,
  type AdApplicationSummary,
  type AdStatus,
  type AdType,
  type ImageUploadRequest,
  type ImageUploadResponse,
  type ManagedAd,
} from '../../contract/ads';
import { moveItem } from '~/utils/move-item';
import { adminDelete, adminHeaders } from '~/models/admin.server';
import { detectImageType, type ImageFile } from '~/utils/ad-application';
import {
  orNullOn404,
  UpstreamError,
  upstreamFetch,
  upstreamJson,
  rethrowUnlessUpstream,
} from '~/models/upstream.server';

/** The presigned PUT of an image up to 5 MB may take longer than a JSON call: 30 s. */
const UPLOAD_TIMEOUT_MS = 30_000;

/**
 * GET /api/web/ads: the banner list (docs/product.md §3.4 Ad banner), in the admins' order.
 * @throws UpstreamError when the api fails or answers off-contract.
 */
export async function getWebAds(context: AppLoadContext): Promise<AdBanner[]> {
  return (await upstreamJson(context, '/api/web/ads', AdBannerListResponseSchema)).data;
}

/**
 * An image file of an ad of `type` (the application's, and an admin's replacement) through the
 * docs/product.md §7 presigned flow: its type read from its first bytes (ad-application.ts detectImageType),
 * POST /api/s3/presigned-url/image, then PUT of the bytes to the presigned URL.
 * @returns the imageUrl to store with the ad, or null when the file is no jpg, png or gif by its
 *   first bytes (then nothing is sent).
 * @throws UpstreamError (status 429 when the phone is over its limit, 507 when the api's image storage
 *   is full (IMAGE_STORAGE_MAX_MB spent or its disk low; ADR 018), 415 when the api's sniffing refuses
 *   the bytes).
 */
export async function uploadAdImage(context: AppLoadContext, type: AdType, file: ImageFile): Promise<string | null> {
  const bytes = new Uint8Array(await file.arrayBuffer());
  const extension = detectImageType(bytes);
  if (!extension) return null;
  const upload = await requestImageUpload(context, { type, extension, byteSize: bytes.byteLength });
  await uploadImage(context, upload.presignedUrl, { bytes, contentType: IMAGE_CONTENT_TYPES[extension] });
  return upload.imageUrl;
}

/**
 * POST /api/s3/presigned-url/image (docs/product.md §3.9 Image upload request): where to PUT the image and the
 * imageUrl the application will carry. docs/product.md §5: an answer without both is an error.
 * @throws UpstreamError (status 429 when the phone is over its limit, 507 when the image storage is full).
 */
function requestImageUpload(context: AppLoadContext, request: ImageUploadRequest): Promise<ImageUploadResponse> {
  return upstreamJson(context, '/api/s3/presigned-url/image', ImageUploadResponseSchema, {
    method: 'POST',
    json: request,
  });
}

/**
 * PUT {presignedUrl} (docs/product.md §7): the file as body with its content type and exact length.
 * @throws UpstreamError on a non-2xx answer or a timeout (30 s).
 */
async function uploadImage(
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

/** What a taken application's answer tells (AdSubmitResponseSchema), absent fields as null and false. */
export type SubmittedApplication = {
  /** The token of its status page /ads/status/{statusToken}, when the api tells it. */
  statusToken: string | null;
  /** Whether the api queued a receipt e-mail carrying the status link (false when it sends no e-mail). */
  emailed: boolean;
};

/**
 * POST /api/ads/{type}/submit (docs/product.md §7): stores the application as pending.
 * @returns its status token when the api tells it (ours does; docs/product.md §7 shows no body),
 *   and whether a receipt e-mail was queued.
 * @throws UpstreamError (status 400 with the api's message for a refused application, 429 over the limit).
 */
export async function submitAdApplication(
  context: AppLoadContext,
  type: AdType,
  application: AdApplication,
): Promise<SubmittedApplication> {
  // docs/product.md §7 shows no body: any 2xx is success; ours carries the status token.
  const answer = await upstreamJson(context, `/api/ads/${type}/submit`, z.unknown(), {
    method: 'POST',
    json: application,
  });
  const told = AdSubmitResponseSchema.safeParse(answer).data;
  return { statusToken: told?.statusToken ?? null, emailed: told?.emailed ?? false };
}

/**
 * GET /api/ads/status/{token} (ours): the applicant's status page of the application `token` names.
 * @returns null when the api knows no such token (404: unknown, revoked, malformed, or its application deleted).
 * @throws UpstreamError otherwise (status 429 when the phone's address is over its limit).
 */
export async function getAdStatus(context: AppLoadContext, token: string): Promise<AdStatus | null> {
  return orNullOn404(upstreamJson(context, `/api/ads/status/${encodeURIComponent(token)}`, AdStatusSchema));
}

/**
 * POST /api/ads/{id}/impressions: counts one impression of a served ad, once per phone per KST day
 * (the api tells phones apart by the address and `userAgent`, the phone's User-Agent, forwarded).
 * @returns false when the api does not serve such an ad (404); true when it does, counted or not.
 * @throws UpstreamError on any other failure (429 when the phone's address is over its limit).
 */
export async function recordAdImpression(
  context: AppLoadContext,
  id: number,
  userAgent: string | null,
): Promise<boolean> {
  // Passed on as a proxy does: with the address (X-Forwarded-For) it tells phones apart.
  const counted = upstreamJson(context, `/api/ads/${id}/impressions`, z.unknown(), {
    method: 'POST',
    headers: userAgent ? { 'User-Agent': userAgent } : undefined,
  }).then(() => true);
  return (await orNullOn404(counted)) ?? false;
}

/**
 * POST /api/ads/{id}/clicks: counts one click of a served ad, once per phone per KST day and within
 * the address's limit (the api tells phones apart by the address and `userAgent`, the phone's
 * User-Agent, forwarded), and answers its stored link, counted or not.
 * @returns the link, or null when the api has no served ad with a link under `id` (404).
 * @throws UpstreamError on any other failure.
 */
export async function recordAdClick(
  context: AppLoadContext,
  id: number,
  userAgent: string | null,
): Promise<string | null> {
  const answer = await orNullOn404(
    upstreamJson(context, `/api/ads/${id}/clicks`, AdClickResponseSchema, {
      method: 'POST',
      headers: userAgent ? { 'User-Agent': userAgent } : undefined,
    }),
  );
  return answer?.redirectUrl ?? null;
}

/**
 * GET /api/images/{key}: a stored image, as the api answers it (body stream and headers; 404 for
 * an unknown key).
 * @throws UpstreamError when the api cannot be reached.
 */
export function getImage(context: AppLoadContext, key: string): Promise<Response> {
  return upstreamFetch(context, `/api/images/${encodeURIComponent(key)}`);
}

/** docs/product.md §3.6 Ad request (admin view), as GET /api/ads/{type}/submit/{id} answers it. */
export type AdApplicationDetail = z.infer<typeof AdApplicationDetailResponseSchema>['data'];

/** GET /api/ads/{type}/submit (docs/product.md §7): the applications of `type`, newest first. @throws UpstreamError. */
export async function listAdApplications(
  context: AppLoadContext,
  actor: string,
  type: AdType,
): Promise<AdApplicationSummary[]> {
  const answer = await upstreamJson(context, `/api/ads/${type}/submit`, AdApplicationListResponseSchema, {
    headers: adminHeaders(context, actor),
  });
  return answer.data;
}

/**
 * GET /api/ads/{type}/submit/{id} (docs/product.md §7).
 * @returns null when there is no such application (404).
 * @throws UpstreamError otherwise.
 */
export async function getAdApplication(
  context: AppLoadContext,
  actor: string,
  type: AdType,
  id: number,
): Promise<AdApplicationDetail | null> {
  const answer = await orNullOn404(
    upstreamJson(context, `/api/ads/${type}/submit/${id}`, AdApplicationDetailResponseSchema, {
      headers: adminHeaders(context, actor),
    }),
  );
  return answer?.data ?? null;
}

/**
 * POST /api/ads/{type}/submit/{id}/approve or /reject (docs/product.md §7, §4.5 Admin request detail);
 * a rejection carries its reason (contract RejectRequestSchema; absent is none).
 * @throws UpstreamError with the api's message (serverMessage) when it refuses, e.g. an application
 *   decided already; an answer with success false counts as a refusal too.
 */
export async function decideAdApplication(
  context: AppLoadContext,
  actor: string,
  application: { type: AdType; id: number } & ({ decision: 'approve' } | { decision: 'reject'; reason?: string }),
): Promise<void> {
  const path = `/api/ads/${application.type}/submit/${application.id}/${application.decision}`;
  // docs/product.md §7 shows no body for reject: any 2xx without success false is success.
  const answer = await upstreamJson(context, path, z.unknown(), {
    method: 'POST',
    headers: adminHeaders(context, actor),
    ...(application.decision === 'reject' ? { json: { reason: application.reason } } : {}),
  });
  refuseUnlessSuccess(path, answer);
}

/**
 * DELETE /api/ads/{type}/submit/{id} (ours, in docs/product.md §7's style; privacy policy 제7조): deletes
 * the request on its applicant's request, with its image unless a showing ad uses it; the api audits it.
 * @returns false when there is no such application (404: deleted already).
 * @throws UpstreamError when the api fails otherwise.
 */
export function deleteAdApplication(
  context: AppLoadContext,
  actor: string,
  application: { type: AdType; id: number },
): Promise<boolean> {
  return adminDelete(context, actor, `/api/ads/${application.type}/submit/${application.id}`);
}

/**
 * GET /api/{type}/ads/list (docs/product.md §7): every managed ad of `type` in the admins' order, with its
 * paid period and counters. An answer with success false is a failure (docs/product.md §7).
 * @throws UpstreamError.
 */
export async function listManagedAds(context: AppLoadContext, actor: string, type: AdType): Promise<ManagedAd[]> {
  const path = `/api/${type}/ads/list`;
  const answer = await upstreamJson(context, path, ManagedAdListResponseSchema, {
    headers: adminHeaders(context, actor),
  });
  refuseUnlessSuccess(path, answer);
  return answer.data;
}

/**
 * PUT /api/{type}/ads/bulk (docs/product.md §7): the list of ads, with their edited fields, in the order to keep.
 * @throws UpstreamError with the api's message when it refuses (also for an answer with success false).
 */
async function saveManagedAds(context: AppLoadContext, actor: string, type: AdType, ads: AdEdit[]): Promise<void> {
  const path = `/api/${type}/ads/bulk`;
  const answer = await upstreamJson(context, path, z.unknown(), {
    method: 'PUT',
    headers: adminHeaders(context, actor),
    json: ads,
  });
  refuseUnlessSuccess(path, answer);
}

/** DELETE /api/{type}/ads/{id} (docs/product.md §7). @throws UpstreamError (404 when there is no such ad). */
export async function deleteManagedAd(context: AppLoadContext, actor: string, type: AdType, id: number): Promise<void> {
  await upstreamJson(context, `/api/${type}/ads/${id}`, z.unknown(), {
    method: 'DELETE',
    headers: adminHeaders(context, actor),
  });
}

/** An admin's edit of one managed ad: its title and link, and a replacement image when one was chosen. */
export type ManagedAdChange = Omit<AdEdit, 'imageUrl'> & { image?: ImageFile };

/**
 * How an edit ended: saved; unchanged (nothing sent); no such ad; stale (another admin changed the
 * ad since the card was opened: nothing saved); a replacement that is no image by its first bytes;
 * or the image upload refused, with the api's error.
 */
export type ManagedAdEditResult =
  | { result: 'saved' | 'unchanged' | 'missing' | 'stale' | 'imageType' }
  | { result: 'uploadFailed'; error: UpstreamError };

/**
 * An admin's edit of the managed ad `change.id` of `type` (docs/product.md §4.6 Ad edit card): the list is read
 * again; an edit made on another version of the ad than the one saved now (`change.version`) is
 * stale; with title, link and image unchanged nothing is sent; else a replacement image is uploaded
 * (uploadAdImage) and the whole list saved with PUT bulk, in its order.
 * @throws UpstreamError when the list cannot be read or the api refuses the save.
 */
export async function editManagedAd(
  context: AppLoadContext,
  actor: string,
  type: AdType,
  change: ManagedAdChange,
): Promise<ManagedAdEditResult> {
  const { id, title, redirectUrl, image, version } = change;
  const ads = await listManagedAds(context, actor, type);
  const original = ads.find((ad) => ad.id === id);
  if (!original) return { result: 'missing' };
  if (version && original.version !== version) return { result: 'stale' };
  if (!image && title === original.title && redirectUrl === original.redirectUrl) return { result: 'unchanged' };
  let imageUrl = original.imageUrl;
  if (image) {
    try {
      const uploaded = await uploadAdImage(context, type, image);
      if (uploaded === null) return { result: 'imageType' };
      imageUrl = uploaded;
    } catch (error) {
      rethrowUnlessUpstream(error);
      return { result: 'uploadFailed', error };
    }
  }
  const edited = ads.map((ad) => (ad.id === id ? { ...ad, title, redirectUrl, imageUrl } : ad));
  try {
    await saveManagedAds(context, actor, type, toEdits(edited));
  } catch (error) {
    // Another admin's save came between the read above and this one.
    if (error instanceof UpstreamError && error.status === 409) return { result: 'stale' };
    throw error;
  }
  return { result: 'saved' };
}

/** A new order of the managed ads: every id once (a drag), or one ad a step up or down (the buttons). */
export type ManagedAdOrder = { order: number[] } | { id: number; direction: 'up' | 'down' };

/**
 * Saves a new order of the managed ads of `type` with PUT bulk. The ads are read again, so an edit
 * made meanwhile is kept.
 * @returns 'saved'; 'stale' when `order` is not the list's ids (the list changed meanwhile: an
 *   approval, another admin); 'unmoved' when the step leads off the list or names no ad.
 * @throws UpstreamError when the list cannot be read or the api refuses the save.
 */
export async function reorderManagedAds(
  context: AppLoadContext,
  actor: string,
  type: AdType,
  change: ManagedAdOrder,
): Promise<'saved' | 'stale' | 'unmoved'> {
  const ads = await listManagedAds(context, actor, type);
  const ids = ads.map((ad) => ad.id);
  let order: number[];
  if ('order' in change) {
    order = change.order;
    const sorted = (list: number[]) => [...list].sort((a, b) => a - b).join();
    if (order.length !== ids.length || sorted(order) !== sorted(ids)) return 'stale';
  } else {
    const index = ids.indexOf(change.id);
    const destination = index + (change.direction === 'up' ? -1 : 1);
    if (index < 0 || destination < 0 || destination >= ids.length) return 'unmoved';
    order = moveItem(ids, { source: index, destination });
  }
  const byId = new Map(ads.map((ad) => [ad.id, ad]));
  await saveManagedAds(context, actor, type, toEdits(order.map((id) => byId.get(id)!)));
  return 'saved';
}

/** The list as PUT bulk takes it (docs/product.md §7): every ad's edited fields and version, in `ads`' order. */
const toEdits = (ads: readonly ManagedAd[]): AdEdit[] =>
  ads.map(({ id, title, redirectUrl, imageUrl, version }) => ({ id, title, redirectUrl, imageUrl, version }));

/** docs/product.md §3 generic admin response: a 2xx answer with `success: false` is a refusal with its message. */
function refuseUnlessSuccess(path: string, answer: unknown): void {
  const parsed = AdminResponseSchema.safeParse(answer);
  if (parsed.success && !parsed.data.success) {
    throw new UpstreamError(`${path}: success false`, 200, parsed.data.message);
  }
}
