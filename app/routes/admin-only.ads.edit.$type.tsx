/**
 * /admin-only/ads/edit/{type}: the managed ads of one type (docs/product.md §2.10.3 Ad edit page, §4 Ad edit
 * card, §7, §8) over GET /api/{type}/ads/list, PUT /api/{type}/ads/bulk and DELETE /api/{type}/ads/{id}.
 *
 * - Cards: title, link and thumbnail (or the placeholders of docs/product.md), the paid period, today's
 *   counters (~/components/admin/ad-edit-card).
 * - Edit ↔ done (?edit=id: one card at a time; the loader's data is the kept original). Done sends
 *   nothing when title, link and image are unchanged; otherwise the action uploads a replacement
 *   image through the presigned flow and saves the list (PUT bulk; editManagedAd).
 * - Order: drag and drop (sortablejs) or the up/down buttons (without JavaScript); unlike the
 *   reference the order is saved (reorderManagedAds), and the home banner and the chatbot follow it.
 * - Delete: a confirm dialog (?delete=id), the call, the card gone, then 'Completed / Deleted'.
 */
import type { SubmissionResult } from '@conform-to/react';
import { json, redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from '@remix-run/node';
import { useActionData, useFetcher, useLoaderData, useNavigation, type MetaFunction } from '@remix-run/react';
import { useState } from 'react';
import { AD_EDIT_HEADINGS, ADMIN_MESSAGES, STALE_EDIT_MESSAGE } from '../../contract/admin';
import { AD_FORMAT_MESSAGES, AdTypeSchema, IMAGE_MAX_BYTES, type AdType, type ManagedAd } from '../../contract/ads';
import { AdEditCard } from '~/components/admin/ad-edit-card';
import { CompletionDialog, ConfirmActions, Dialog } from '~/components/dialog';
import { RouteError } from '~/components/route-error';
import { SITE_NAME } from '~/components/site-header';
import { SortableList } from '~/components/sortable-list';
import { moveItem } from '~/utils/move-item';
import {
  deleteManagedAd,
  editManagedAd,
  listManagedAds,
  reorderManagedAds,
  type ManagedAdEditResult,
  type ManagedAdOrder,
} from '~/models/ads.server';
import { AdEditFormSchema, adEditPage } from '~/utils/admin-ads';
import { parseForm, readUploadForm, refusedForm, serialIdOf, type FormSpec } from '~/utils/form-data.server';
import { redirectWithFlash, requireAdmin, takeFlash, type Admin } from '~/models/session.server';
import { UpstreamError, rethrowUnlessUpstream } from '~/models/upstream.server';
import { useHydrated } from '~/hooks/use-hydrated';
import { consoleFor } from '../../lib/observability/request-tag';

type ActionData = { result: SubmissionResult<string[]> };

/** docs/product.md §8: 'Failed to modify the ad: {server message}', or without one 'Failed to modify the ad.'. */
function modifyFailed(error: UpstreamError): string {
  return error.serverMessage
    ? `${ADMIN_MESSAGES.modifyFailedWith}: ${error.serverMessage}`
    : ADMIN_MESSAGES.modifyFailed;
}

/**
 * The upload failure of docs/product.md §8 when the api's image storage is full (its 507, ADR 018), with
 * what frees room: an image goes once no ad and no request uses it (the orphan sweep), or a larger budget.
 */
const STORAGE_FULL = `${ADMIN_MESSAGES.uploadFailed} 이미지 저장 공간이 가득 찼습니다. 더 이상 게시하지 않는 광고와 그 광고 요청을 삭제하거나 IMAGE_STORAGE_MAX_MB 값을 늘려주세요.`;

/** The page's forms: a card's edit, its delete, its move (id, direction) and a drag's new order; each with its intent. */
const FIELDS: FormSpec = { schema: AdEditFormSchema, also: ['intent', 'direction', 'order'] };

/** The save of an ad another admin changed since its card was opened. */
const STALE_AD = `${STALE_EDIT_MESSAGE} 지금 저장된 내용을 보여드립니다. 바꿀 내용을 다시 입력해 저장해주세요.`;

/** The save of an ad that is gone meanwhile (deleted in another tab, or by another admin). */
const MISSING = `${ADMIN_MESSAGES.modifyFailedWith}: 이 광고는 이미 삭제되었습니다.`;

/** Done on an edited card: nothing is sent when unchanged (docs/product.md §4); else editManagedAd saves it. */
async function saveCard(admin: Admin, context: ActionFunctionArgs['context'], type: AdType, formData: FormData) {
  const submission = parseForm(formData, AdEditFormSchema);
  if (submission.status !== 'success') {
    return json<ActionData>({ result: submission.reply({ hideFields: ['image'] }) }, { status: 400 });
  }
  const refuse = (errors: { formErrors?: string[]; fieldErrors?: Record<string, string[]> }, status: number) =>
    json<ActionData>({ result: submission.reply({ ...errors, hideFields: ['image'] }) }, { status });
  let edit: ManagedAdEditResult;
  try {
    edit = await editManagedAd(context, admin.username, type, submission.value);
  } catch (error) {
    rethrowUnlessUpstream(error);
    consoleFor(context.reqId).error('[admin] ad save:', error.message);
    return refuse({ formErrors: [modifyFailed(error)] }, 502);
  }
  if (edit.result === 'missing') return refuse({ formErrors: [MISSING] }, 404);
  // The card again, with what the other admin saved, and why.
  if (edit.result === 'stale') {
    const card = `${adEditPage(type)}?edit=${submission.value.id}`;
    return redirectWithFlash(context, admin, card, { tone: 'error', message: STALE_AD });
  }
  if (edit.result === 'unchanged') return redirect(adEditPage(type), 303);
  if (edit.result === 'imageType') return refuse({ fieldErrors: { image: [AD_FORMAT_MESSAGES.imageType] } }, 400);
  if (edit.result === 'uploadFailed') {
    consoleFor(context.reqId).error('[admin] ad image upload:', ADMIN_MESSAGES.uploadFailed, edit.error.message);
    // A full image storage is this service unavailable for now (503), not a broken upstream (502).
    if (edit.error.status === 507) return refuse({ formErrors: [STORAGE_FULL] }, 503);
    return refuse({ formErrors: [ADMIN_MESSAGES.uploadFailed] }, 502);
  }
  return redirectWithFlash(context, admin, adEditPage(type), { tone: 'success', message: ADMIN_MESSAGES.modified });
}

/**
 * Delete after the confirm dialog: the call, then 'Completed / Deleted' (docs/product.md §2, §4);
 * a failure in red text.
 */
async function deleteCard(
  admin: Admin,
  context: ActionFunctionArgs['context'],
  type: AdType,
  idField: FormDataEntryValue | null,
) {
  const id = serialIdOf(idField);
  if (id === null) throw new Response('Bad request', { status: 400 });
  try {
    await deleteManagedAd(context, admin.username, type, id);
  } catch (error) {
    rethrowUnlessUpstream(error);
    consoleFor(context.reqId).error('[admin] ad delete:', ADMIN_MESSAGES.deleteFailed, error.message);
    return redirectWithFlash(context, admin, adEditPage(type), {
      tone: 'error',
      message: ADMIN_MESSAGES.deleteFailed,
    });
  }
  return redirectWithFlash(context, admin, adEditPage(type), {
    tone: 'success',
    title: ADMIN_MESSAGES.deletedTitle,
    message: ADMIN_MESSAGES.deletedText,
  });
}

/** A new order: `order` (ids, comma-separated; a drag) or `id` and `direction` (up/down; the buttons). */
async function reorder(admin: Admin, context: ActionFunctionArgs['context'], type: AdType, formData: FormData) {
  const page = adEditPage(type);
  const change: ManagedAdOrder =
    formData.get('intent') === 'reorder'
      ? {
          order: String(formData.get('order') ?? '')
            .split(',')
            .map(Number),
        }
      : { id: Number(formData.get('id')), direction: formData.get('direction') === 'up' ? 'up' : 'down' };
  let saved: Awaited<ReturnType<typeof reorderManagedAds>>;
  try {
    saved = await reorderManagedAds(context, admin.username, type, change);
  } catch (error) {
    rethrowUnlessUpstream(error);
    consoleFor(context.reqId).error('[admin] ad order:', error.message);
    return redirectWithFlash(context, admin, page, { tone: 'error', message: modifyFailed(error) });
  }
  // The list changed meanwhile (an approval, another admin): show it again as it is now.
  if (saved === 'stale') {
    return redirectWithFlash(context, admin, page, { tone: 'error', message: ADMIN_MESSAGES.modifyFailed });
  }
  if (saved === 'unmoved') return redirect(page, 303);
  return redirectWithFlash(context, admin, page, { tone: 'success', message: '순서를 저장했습니다.' });
}

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const admin = await requireAdmin(request, context);
  const type = AdTypeSchema.safeParse(params.type);
  if (!type.success) {
    consoleFor(context.reqId).error(`[admin] ad edit page: invalid ad type "${params.type}"`);
    return json({ type: null, ads: [], failed: false, flash: null, edit: null, remove: null } as const, {
      status: 404,
    });
  }
  const { flash, headers } = await takeFlash(context, admin);
  const search = new URL(request.url).searchParams;
  const idParam = (name: string) => (/^\d{1,10}$/.test(search.get(name) ?? '') ? Number(search.get(name)) : null);
  try {
    const ads = await listManagedAds(context, admin.username, type.data);
    const known = (id: number | null) => (id !== null && ads.some((ad) => ad.id === id) ? id : null);
    return json(
      { type: type.data, ads, failed: false, flash, edit: known(idParam('edit')), remove: known(idParam('delete')) },
      { headers },
    );
  } catch (error) {
    rethrowUnlessUpstream(error);
    consoleFor(context.reqId).error('[admin] ad edit page:', ADMIN_MESSAGES.listLoadFailed, error.message);
    return json({ type: type.data, ads: [], failed: true, flash, edit: null, remove: null }, { status: 502, headers });
  }
}

export async function action({ request, context, params }: ActionFunctionArgs) {
  const admin = await requireAdmin(request, context);
  const type = AdTypeSchema.safeParse(params.type);
  if (!type.success) throw new Response('Not found', { status: 404 });
  const read = await readUploadForm(request, FIELDS, { maxFileBytes: IMAGE_MAX_BYTES });
  if (!read) return json<ActionData>({ result: refusedForm(ADMIN_MESSAGES.modifyFailed) }, { status: 400 });
  if (read.oversized.length > 0) {
    const result: SubmissionResult<string[]> = { status: 'error', error: { image: [AD_FORMAT_MESSAGES.imageSize] } };
    return json<ActionData>({ result }, { status: 413 });
  }
  const { formData } = read;
  const intent = formData.get('intent');
  if (intent === 'save') return saveCard(admin, context, type.data, formData);
  if (intent === 'delete') return deleteCard(admin, context, type.data, formData.get('id'));
  if (intent === 'reorder' || intent === 'move') return reorder(admin, context, type.data, formData);
  throw new Response('Bad request', { status: 400 });
}

export default function AdEditPage() {
  const data = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const navigation = useNavigation();
  const reorderFetcher = useFetcher();
  const hydrated = useHydrated();
  const [dragged, setDragged] = useState<{ from: readonly ManagedAd[]; order: number[] } | null>(null);

  if (!data.type) {
    return (
      <section className="admin-page" aria-labelledby="edit-title">
        <h1 id="edit-title" className="admin-page__title">
          {AD_EDIT_HEADINGS.other}
        </h1>
        <p className="admin-error" role="alert">
          {ADMIN_MESSAGES.invalidTypeEdit}
        </p>
      </section>
    );
  }
  const { type, ads, failed, flash, edit, remove } = data;
  const page = adEditPage(type);
  // A drag shows its order at once; the loader's answer after the save replaces it.
  const order = dragged && dragged.from === ads ? dragged.order : ads.map((ad) => ad.id);
  const shown = order.map((id) => ads.find((ad) => ad.id === id)!).filter(Boolean);
  const loading = navigation.state === 'loading' && navigation.location.pathname === page;
  const removing = remove === null ? null : ads.find((ad) => ad.id === remove);

  const onMove = (result: { source: number; destination: number }) => {
    const next = moveItem(order, result);
    setDragged({ from: ads, order: next });
    const form = new FormData();
    form.set('intent', 'reorder');
    form.set('order', next.join(','));
    reorderFetcher.submit(form, { method: 'post', encType: 'multipart/form-data' });
  };

  return (
    <section className="admin-page ad-edit" aria-labelledby="edit-title">
      <h1 id="edit-title" className="admin-page__title">
        {AD_EDIT_HEADINGS[type]}
      </h1>
      {/* Live regions always on the page, so what appears in them is announced. */}
      <div className="ad-edit__status" role="status">
        {loading && <p className="ad-edit__loading">{ADMIN_MESSAGES.loading}</p>}
        {flash?.tone === 'success' && !flash.title && <p className="admin-success">{flash.message}</p>}
      </div>
      <div role="alert">
        {failed && <p className="admin-error">{ADMIN_MESSAGES.listLoadFailed}</p>}
        {flash?.tone === 'error' && <p className="admin-error">{flash.message}</p>}
        {/* A refused save of an ad that is gone has no card left to show it in. */}
        {edit === null && actionData?.result.error?.['']?.[0] && (
          <p className="admin-error">{actionData.result.error[''][0]}</p>
        )}
      </div>
      {!failed && ads.length === 0 && (
        <p className="empty">게시 중인 광고가 없습니다. 광고 요청을 승인하면 여기에 추가됩니다.</p>
      )}
      {ads.length > 0 && (
        <>
          <p className="ad-edit__hint">
            {hydrated
              ? '카드를 끌어 놓거나 위·아래 버튼으로 순서를 바꾸면 바로 저장됩니다. '
              : '위·아래 버튼으로 순서를 바꾸면 바로 저장됩니다. '}
            {type === 'web' ? '홈 배너는' : '챗봇은'} 이 순서를 따릅니다.
          </p>
          <SortableList
            className="ad-list"
            handle=".ad-card__handle"
            disabled={edit !== null || reorderFetcher.state !== 'idle'}
            onMove={onMove}
            label={`${AD_EDIT_HEADINGS[type]} 목록`}
          >
            {shown.map((ad, index) => (
              <AdEditCard
                key={ad.id}
                ad={ad}
                type={type}
                editing={edit === ad.id}
                locked={edit !== null && edit !== ad.id}
                first={index === 0}
                last={index === shown.length - 1}
                dragHandle={hydrated}
                lastResult={actionData?.result}
              />
            ))}
          </SortableList>
        </>
      )}
      {removing && (
        <Dialog title={ADMIN_MESSAGES.deleteConfirm} closeTo={page} message={removing.title ?? ADMIN_MESSAGES.noTitle}>
          <ConfirmActions
            page={page}
            intent="delete"
            id={removing.id}
            cancelLabel="취소"
            confirmLabel="삭제"
            multipart
          />
        </Dialog>
      )}
      {flash?.title && <CompletionDialog flash={flash} closeTo={page} />}
    </section>
  );
}

export const meta: MetaFunction = () => [
  { title: `광고 게시 / 수정 | ${SITE_NAME}` },
  { name: 'robots', content: 'noindex' },
];

export function ErrorBoundary() {
  return <RouteError />;
}
