/**
 * One managed ad on the ad edit page (docs/product.md §2, §4.6 Ad edit card): viewing, with its figures,
 * edit and delete links and the up/down buttons, or editing with its form (?edit=id).
 */
import type { SubmissionResult } from '@conform-to/react';
import { Form, Link } from '@remix-run/react';
import { ADMIN_MESSAGES } from '../../../contract/admin';
import { AD_IMAGE_SIZE, type AdType, type ManagedAd } from '../../../contract/ads';
import { AdEditForm } from '~/components/admin/ad-edit-form';
import { AdFigures } from '~/components/admin/ad-figures';
import { adEditPage, isShowableImage } from '~/utils/admin-ads';

export function AdEditCard({
  ad,
  type,
  editing,
  locked,
  first,
  last,
  dragHandle,
  lastResult,
}: {
  ad: ManagedAd;
  type: AdType;
  editing: boolean;
  /** Another card is being edited (docs/product.md §4: one at a time). */
  locked: boolean;
  first: boolean;
  last: boolean;
  dragHandle: boolean;
  /** The action's answer to the last save, for the form in edit. */
  lastResult: SubmissionResult<string[]> | undefined;
}) {
  const page = adEditPage(type);
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
        <AdEditForm ad={ad} page={page} titleId={titleId} lastResult={lastResult} />
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
