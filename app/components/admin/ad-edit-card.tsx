/**
 * One managed ad on the ad edit page (docs/product.md §2, §4.6 Ad edit card): viewing, with its figures,
 * edit and delete links and the up/down buttons, or editing with its form (?edit=id). While another
 * card is edited, this one's edit, delete and move buttons are disabled (one card at a time).
 */
import type { SubmissionResult } from '@conform-to/react';
import { Form, Link } from '@remix-run/react';
import { ADMIN_MESSAGES } from '../../../contract/admin';
import type { AdType, ManagedAd } from '../../../contract/ads';
import { AdEditForm } from '~/components/admin/ad-edit-form';
import { AdFigures } from '~/components/admin/ad-figures';
import { AdThumb } from '~/components/admin/ad-thumb';
import { adEditPage } from '~/utils/admin-ads';

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
  const titleId = `ad-${ad.id}-title`;
  const name = ad.title ?? ADMIN_MESSAGES.noTitle;
  return (
    <li className={`ad-card${editing ? ' ad-card--editing' : ''}`} aria-labelledby={titleId}>
      {dragHandle && (
        <span className="ad-card__handle" aria-hidden="true" title="끌어서 순서 바꾸기">
          ⠿
        </span>
      )}
      {editing ? (
        <AdEditForm ad={ad} type={type} page={page} titleId={titleId} lastResult={lastResult} />
      ) : (
        <>
          <AdThumb type={type} imageUrl={ad.imageUrl} />
          <div className="ad-card__body">
            <p id={titleId} className="ad-card__title">
              {name}
            </p>
            <p className="ad-card__link">{ad.redirectUrl || ADMIN_MESSAGES.noLink}</p>
            <AdFigures ad={ad} />
            <div className="ad-card__actions">
              <CardLink to={`${page}?edit=${ad.id}`} locked={locked} label="edit" name={name} />
              <CardLink to={`${page}?delete=${ad.id}`} locked={locked} label="삭제" name={name} />
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
        </>
      )}
    </li>
  );
}

/**
 * One of a card's step links (edit, delete), named with the ad for a screen reader; while another
 * card is edited, the same label as a disabled button (a link cannot be disabled).
 */
function CardLink({ to, locked, label, name }: { to: string; locked: boolean; label: string; name: string }) {
  const text = (
    <>
      {label}
      <span className="sr-only"> {name}</span>
    </>
  );
  if (locked) {
    return (
      <button type="button" className="button button--small" disabled>
        {text}
      </button>
    );
  }
  return (
    <Link to={to} className="button button--small" preventScrollReset>
      {text}
    </Link>
  );
}
