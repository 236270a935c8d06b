/**
 * /admin-only/ads/edit/{type}: the managed ads of one type (spec §2 Ad edit page, §4 Ad edit card,
 * §7, §8) over GET /api/{type}/ads/list, PUT /api/{type}/ads/bulk and DELETE /api/{type}/ads/{id}.
 *
 * - Cards: title, link and thumbnail (or the spec's placeholders), the paid period, today's counters.
 * - Edit ↔ done (?edit=id: one card at a time; the loader's data is the kept original). Done sends
 *   nothing when title, link and image are unchanged; otherwise the action uploads a replacement
 *   image through the presigned flow and saves the list (PUT bulk).
 * - Order: drag and drop (sortablejs) or the up/down buttons (without JavaScript); unlike the
 *   reference the order is saved, and the home banner and the chatbot follow it.
 * - Delete: a confirm dialog (?delete=id), the call, the card gone, then 'Completed / Deleted'.
 */
import { getFormProps, getInputProps, useForm, type SubmissionResult } from '@conform-to/react';
import { parseWithZod } from '@conform-to/zod';
import { json, redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from '@remix-run/node';
import {
  Form,
  Link,
  useActionData,
  useFetcher,
  useLoaderData,
  useNavigate,
  useNavigation,
  type MetaFunction,
} from '@remix-run/react';
import { useState, type FormEvent } from 'react';
import { AD_EDIT_HEADINGS, ADMIN_MESSAGES } from '../../contract/admin';
import {
  AD_FORMAT_MESSAGES,
  AD_IMAGE_SIZE,
  AdTypeSchema,
  IMAGE_MAX_BYTES,
  type AdEdit,
  type AdType,
  type ManagedAd,
} from '../../contract/ads';
import { CompletionDialog, ConfirmActions, Dialog } from '~/components/dialog';
import { FieldError } from '~/components/forms';
import { RouteError } from '~/components/route-error';
import { SITE_NAME } from '~/components/site-header';
import { moveItem, SortableList } from '~/components/sortable-list';
import { deleteManagedAd, listManagedAds, saveManagedAds, storeAdImage } from '~/models/ads.server';
import { detectImageType } from '~/utils/ad-application';
import { AdEditFormSchema, isShowableImage } from '~/utils/admin-ads';
import { formatKstPeriod } from '~/utils/kst';
import { parseForm, readUploadForm, refusedForm } from '~/utils/form-data.server';
import { redirectWithFlash, requireAdmin, takeFlash, type Admin } from '~/utils/session.server';
import { UpstreamError } from '~/utils/upstream.server';
import { useHydrated } from '~/utils/use-hydrated';

type ActionData = { result: SubmissionResult<string[]> };

const pageOf = (type: AdType) => `/admin-only/ads/edit/${type}`;

/** Spec §8: 'Failed to modify the ad: {server message}', or without a message 'Failed to modify the ad.'. */
function modifyFailed(error: UpstreamError): string {
  return error.serverMessage
    ? `${ADMIN_MESSAGES.modifyFailedWith}: ${error.serverMessage}`
    : ADMIN_MESSAGES.modifyFailed;
}

/**
 * Spec §8's upload failure when the api's image storage is full (its 507, ADR 018), with what frees
 * room: an image goes once no ad and no request uses it (the orphan sweep), or a larger budget.
 */
const STORAGE_FULL = `${ADMIN_MESSAGES.uploadFailed} 이미지 저장 공간이 가득 찼습니다. 더 이상 게시하지 않는 광고와 그 광고 요청을 삭제하거나 IMAGE_STORAGE_MAX_MB 값을 늘려주세요.`;

/** The list as PUT bulk takes it (spec §7): every ad's edited fields, in `ads`' order. */
const toEdits = (ads: readonly ManagedAd[]): AdEdit[] =>
  ads.map(({ id, title, redirectUrl, imageUrl }) => ({ id, title, redirectUrl, imageUrl }));

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const admin = await requireAdmin(request, context);
  const type = AdTypeSchema.safeParse(params.type);
  if (!type.success) {
    console.error(`[admin] ad edit page: invalid ad type "${params.type}"`);
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
    if (!(error instanceof UpstreamError)) throw error;
    console.error('[admin] ad edit page:', ADMIN_MESSAGES.listLoadFailed, error.message);
    return json({ type: type.data, ads: [], failed: true, flash, edit: null, remove: null }, { status: 502, headers });
  }
}

export async function action({ request, context, params }: ActionFunctionArgs) {
  const admin = await requireAdmin(request, context);
  const type = AdTypeSchema.safeParse(params.type);
  if (!type.success) throw new Response('Not found', { status: 404 });
  const read = await readUploadForm(request, { maxFileBytes: IMAGE_MAX_BYTES });
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

/** Done on an edited card: nothing is sent when unchanged (spec §4); else upload the image, then PUT bulk. */
async function saveCard(admin: Admin, context: ActionFunctionArgs['context'], type: AdType, formData: FormData) {
  const page = pageOf(type);
  const submission = parseForm(formData, AdEditFormSchema);
  if (submission.status !== 'success') {
    return json<ActionData>({ result: submission.reply({ hideFields: ['image'] }) }, { status: 400 });
  }
  const { id, title, redirectUrl, image } = submission.value;
  const refuse = (errors: { formErrors?: string[]; fieldErrors?: Record<string, string[]> }, status: number) =>
    json<ActionData>({ result: submission.reply({ ...errors, hideFields: ['image'] }) }, { status });
  try {
    const ads = await listManagedAds(context, admin.username, type);
    const original = ads.find((ad) => ad.id === id);
    if (!original)
      return refuse({ formErrors: [`${ADMIN_MESSAGES.modifyFailedWith}: no ${type} ad with id ${id}`] }, 404);
    if (!image && title === original.title && redirectUrl === original.redirectUrl) return redirect(page, 303);
    let imageUrl = original.imageUrl;
    if (image) {
      const bytes = new Uint8Array(await image.arrayBuffer());
      const extension = detectImageType(bytes);
      if (!extension) return refuse({ fieldErrors: { image: [AD_FORMAT_MESSAGES.imageType] } }, 400);
      try {
        imageUrl = await storeAdImage(context, type, { bytes, extension });
      } catch (error) {
        if (!(error instanceof UpstreamError)) throw error;
        console.error('[admin] ad image upload:', ADMIN_MESSAGES.uploadFailed, error.message);
        // A full image storage is this service unavailable for now (503), not a broken upstream (502).
        if (error.status === 507) return refuse({ formErrors: [STORAGE_FULL] }, 503);
        return refuse({ formErrors: [ADMIN_MESSAGES.uploadFailed] }, 502);
      }
    }
    const edited = ads.map((ad) => (ad.id === id ? { ...ad, title, redirectUrl, imageUrl } : ad));
    await saveManagedAds(context, admin.username, type, toEdits(edited));
  } catch (error) {
    if (!(error instanceof UpstreamError)) throw error;
    console.error('[admin] ad save:', error.message);
    return refuse({ formErrors: [modifyFailed(error)] }, 502);
  }
  return redirectWithFlash(context, admin, page, { tone: 'success', message: ADMIN_MESSAGES.modified });
}

/** Delete after the confirm dialog: the call, then 'Completed / Deleted' (spec §2, §4); failure in red text. */
async function deleteCard(
  admin: Admin,
  context: ActionFunctionArgs['context'],
  type: AdType,
  idField: FormDataEntryValue | null,
) {
  const id = Number(idField);
  if (!Number.isInteger(id) || id <= 0) throw new Response('Bad request', { status: 400 });
  try {
    await deleteManagedAd(context, admin.username, type, id);
  } catch (error) {
    if (!(error instanceof UpstreamError)) throw error;
    console.error('[admin] ad delete:', ADMIN_MESSAGES.deleteFailed, error.message);
    return redirectWithFlash(context, admin, pageOf(type), { tone: 'error', message: ADMIN_MESSAGES.deleteFailed });
  }
  return redirectWithFlash(context, admin, pageOf(type), {
    tone: 'success',
    title: ADMIN_MESSAGES.deletedTitle,
    message: ADMIN_MESSAGES.deletedText,
  });
}

/**
 * A new order: `order` (ids, comma-separated; a drag) or `id` and `direction` (up/down; the buttons).
 * The ads are re-read, so an edit made meanwhile is kept, and saved with PUT bulk in the new order.
 */
async function reorder(admin: Admin, context: ActionFunctionArgs['context'], type: AdType, formData: FormData) {
  const page = pageOf(type);
  try {
    const ads = await listManagedAds(context, admin.username, type);
    const ids = ads.map((ad) => ad.id);
    let order: number[];
    if (formData.get('intent') === 'reorder') {
      order = String(formData.get('order') ?? '')
        .split(',')
        .map(Number);
      if (
        order.length !== ids.length ||
        [...order].sort((a, b) => a - b).join() !== [...ids].sort((a, b) => a - b).join()
      ) {
        // The list changed meanwhile (an approval, another admin): show it again as it is now.
        return redirectWithFlash(context, admin, page, { tone: 'error', message: ADMIN_MESSAGES.modifyFailed });
      }
    } else {
      const index = ids.indexOf(Number(formData.get('id')));
      const destination = index + (formData.get('direction') === 'up' ? -1 : 1);
      if (index < 0 || destination < 0 || destination >= ids.length) return redirect(page, 303);
      order = moveItem(ids, { source: index, destination });
    }
    const byId = new Map(ads.map((ad) => [ad.id, ad]));
    await saveManagedAds(context, admin.username, type, toEdits(order.map((id) => byId.get(id)!)));
  } catch (error) {
    if (!(error instanceof UpstreamError)) throw error;
    console.error('[admin] ad order:', error.message);
    return redirectWithFlash(context, admin, page, { tone: 'error', message: modifyFailed(error) });
  }
  return redirectWithFlash(context, admin, page, { tone: 'success', message: '순서를 저장했습니다.' });
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
  const page = pageOf(type);
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
        {loading && <p>{ADMIN_MESSAGES.loading}</p>}
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
              <AdCard
                key={ad.id}
                ad={ad}
                type={type}
                editing={edit === ad.id}
                locked={edit !== null && edit !== ad.id}
                first={index === 0}
                last={index === shown.length - 1}
                dragHandle={hydrated}
              />
            ))}
          </SortableList>
        </>
      )}
      {removing && (
        <Dialog title={ADMIN_MESSAGES.deleteConfirm} closeTo={page} message={removing.title ?? ADMIN_MESSAGES.noTitle}>
          <ConfirmActions page={page} intent="delete" id={removing.id} cancelLabel="no" confirmLabel="yes" multipart />
        </Dialog>
      )}
      {flash?.title && <CompletionDialog flash={flash} closeTo={page} />}
    </section>
  );
}

/** One ad (spec §2): viewing, or editing with its form (?edit=id). */
function AdCard({
  ad,
  type,
  editing,
  locked,
  first,
  last,
  dragHandle,
}: {
  ad: ManagedAd;
  type: AdType;
  editing: boolean;
  /** Another card is being edited (spec §4: one at a time). */
  locked: boolean;
  first: boolean;
  last: boolean;
  dragHandle: boolean;
}) {
  const page = pageOf(type);
  const size = AD_IMAGE_SIZE[type];
  const titleId = `ad-${ad.id}-title`;
  const name = ad.title ?? ADMIN_MESSAGES.noTitle;
  return (
    <li className={`ad-card${editing ? ' ad-card--editing' : ''}`} aria-labelledby={titleId}>
      {dragHandle && (
        <span className="ad-card__handle" aria-hidden="true" title="끌어서 순서 바꾸기">
          ⠿
        </span>
      )}
      <div className="ad-card__thumb" style={{ aspectRatio: `${size.width} / ${size.height}` }}>
        {isShowableImage(ad.imageUrl) ? (
          <img src={ad.imageUrl} alt="" width={size.width} height={size.height} />
        ) : (
          <span>{ADMIN_MESSAGES.noImage}</span>
        )}
      </div>
      {editing ? (
        <EditForm ad={ad} page={page} titleId={titleId} />
      ) : (
        <div className="ad-card__body">
          <p id={titleId} className="ad-card__title">
            {name}
          </p>
          <p className="ad-card__link">{ad.redirectUrl || ADMIN_MESSAGES.noLink}</p>
          <AdFigures ad={ad} />
          <div className="ad-card__actions">
            {locked ? (
              <button type="button" className="button button--small" disabled>
                edit<span className="sr-only"> {name}</span>
              </button>
            ) : (
              <Link to={`${page}?edit=${ad.id}`} className="button button--small" preventScrollReset>
                edit<span className="sr-only"> {name}</span>
              </Link>
            )}
            <Link to={`${page}?delete=${ad.id}`} className="button button--small" preventScrollReset>
              delete<span className="sr-only"> {name}</span>
            </Link>
            <input type="file" disabled aria-label={`${name} 이미지 선택 (수정 중에만)`} className="ad-card__file" />
            <Form
              method="post"
              action={page}
              encType="multipart/form-data"
              className="ad-card__move"
              preventScrollReset
            >
              <input type="hidden" name="intent" value="move" />
              <input type="hidden" name="id" value={ad.id} />
              <button
                type="submit"
                name="direction"
                value="up"
                className="button button--small"
                disabled={first || locked}
              >
                위로<span className="sr-only"> {name}</span>
              </button>
              <button
                type="submit"
                name="direction"
                value="down"
                className="button button--small"
                disabled={last || locked}
              >
                아래로<span className="sr-only"> {name}</span>
              </button>
            </Form>
          </div>
        </div>
      )}
    </li>
  );
}

/** The paid period and today's counters (and the totals) of an ad. */
function AdFigures({ ad }: { ad: ManagedAd }) {
  return (
    <dl className="ad-card__figures">
      {ad.startsAt && ad.endsAt && (
        <div>
          <dt>게재 기간</dt>
          <dd>{formatKstPeriod(ad.startsAt, ad.endsAt)}</dd>
        </div>
      )}
      {ad.todayImpressions !== undefined && (
        <div>
          <dt>오늘</dt>
          <dd>
            노출 {ad.todayImpressions.toLocaleString('ko-KR')} · 클릭 {(ad.todayClicks ?? 0).toLocaleString('ko-KR')}
          </dd>
        </div>
      )}
      {ad.impressions !== undefined && (
        <div>
          <dt>누적</dt>
          <dd>
            노출 {ad.impressions.toLocaleString('ko-KR')} · 클릭 {(ad.clicks ?? 0).toLocaleString('ko-KR')}
          </dd>
        </div>
      )}
    </dl>
  );
}

/** The card in edit: title, link and a replacement image; 'done' saves (or, unchanged, just closes). */
function EditForm({ ad, page, titleId }: { ad: ManagedAd; page: string; titleId: string }) {
  const actionData = useActionData<typeof action>();
  const navigation = useNavigation();
  const navigate = useNavigate();
  const saving = navigation.state === 'submitting' && navigation.formData?.get('intent') === 'save';
  const [form, fields] = useForm({
    id: `ad-edit-${ad.id}`,
    lastResult: navigation.state === 'idle' ? actionData?.result : undefined,
    defaultValue: { id: String(ad.id), title: ad.title ?? '', redirectUrl: ad.redirectUrl ?? '' },
    shouldValidate: 'onBlur',
    shouldRevalidate: 'onInput',
    onValidate: ({ formData }) => parseWithZod(formData, { schema: AdEditFormSchema }),
  });
  // Spec §4: done with title, link and image unchanged sends nothing; it only leaves edit mode.
  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    const data = new FormData(event.currentTarget);
    const file = data.get('image');
    const same = (name: 'title' | 'redirectUrl') => String(data.get(name) ?? '').trim() === (ad[name] ?? '');
    if (same('title') && same('redirectUrl') && !(file instanceof File && file.size > 0)) {
      event.preventDefault();
      navigate(page, { replace: true, preventScrollReset: true });
    }
  };
  const formError = form.errors?.[0];
  return (
    <Form
      method="post"
      action={`${page}?edit=${ad.id}`}
      encType="multipart/form-data"
      className="ad-card__body ad-card__form"
      preventScrollReset
      {...getFormProps(form)}
      onSubmit={(event) => {
        onSubmit(event);
        if (!event.defaultPrevented) form.onSubmit(event);
      }}
    >
      <p id={titleId} className="sr-only">
        {ad.title ?? ADMIN_MESSAGES.noTitle} 수정 중
      </p>
      <input {...getInputProps(fields.id, { type: 'hidden' })} key={fields.id.key} />
      {formError && (
        <p className="admin-error" role="alert">
          {formError}
        </p>
      )}
      <label htmlFor={fields.title.id} className="field__label">
        제목
      </label>
      <input {...getInputProps(fields.title, { type: 'text' })} key={fields.title.key} className="field__control" />
      <FieldError meta={fields.title} />
      <label htmlFor={fields.redirectUrl.id} className="field__label">
        링크
      </label>
      <input
        {...getInputProps(fields.redirectUrl, { type: 'url' })}
        key={fields.redirectUrl.key}
        className="field__control"
        placeholder="https://"
      />
      <FieldError meta={fields.redirectUrl} />
      <label htmlFor={fields.image.id} className="field__label">
        이미지 바꾸기 <span className="field__optional">(JPG, PNG, GIF · 5MB 이하)</span>
      </label>
      <input
        {...getInputProps(fields.image, { type: 'file' })}
        key={fields.image.key}
        accept="image/jpeg,image/png,image/gif"
        className="ad-card__file"
      />
      <FieldError meta={fields.image} />
      <div className="ad-card__actions">
        <button
          type="submit"
          name="intent"
          value="save"
          className="button button--small button--primary"
          disabled={saving}
        >
          {saving ? '저장 중…' : 'done'}
        </button>
        <Link to={page} className="button button--small" replace preventScrollReset>
          취소
        </Link>
      </div>
    </Form>
  );
}

export const meta: MetaFunction = () => [
  { title: `광고 게시 / 수정 | ${SITE_NAME}` },
  { name: 'robots', content: 'noindex' },
];

export function ErrorBoundary() {
  return <RouteError />;
}
