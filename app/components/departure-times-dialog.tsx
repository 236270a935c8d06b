/**
 * The down tab's expected departure times modal, titled "출발 예상 시간" (docs/product.md §2 "Expected
 * departure times modal", §4.2 Expected times modal), and the link that opens it. Its state lives in
 * the URL (`?dir=down&times=all|1150|…[&sort=time]`, see timesModalFromSearch), so it works in two ways:
 *
 * - Without JavaScript: the opener is a link, the home loader loads the times and the page renders
 *   the dialog open (a non-modal `<dialog open>` styled as an overlay); the filter is a GET form with
 *   a submit button, and "닫기" is a link back to `?dir=down`. The opener's and the form's URLs end
 *   in `#times-next`, so the list opens scrolled to the next departure.
 * - With JavaScript: the same `<dialog>` is shown with showModal() (focus trap, Esc, backdrop); the
 *   filter applies on change; the times load through GET /bus/predicted with a fetcher, on open and
 *   on every filter change, with the docs/product.md §8 loading and failure texts. Once loaded, the
 *   list scrolls to the next departure itself.
 *
 * History: opening pushes an entry, so the phone's Back button closes the modal; filter changes
 * replace it, so one Back closes the modal instead of stepping through filters; closing with Esc or
 * "닫기" goes back over the entry the opener pushed (or replaces it when the page was loaded open),
 * so the history never keeps a stale open modal. Focus returns to the opener on every close.
 */
import { Link, useFetcher, useLocation, useNavigate, useSearchParams } from '@remix-run/react';
import { useEffect, useRef, useState, type RefObject } from 'react';
import { DepartureTimeList, NEXT_TIME_ID } from '~/components/departure-time-list';
import { useModalDialog } from '~/components/dialog';
import type { clientLoader } from '~/routes/bus.predicted';
import {
  parseRouteFilter,
  ROUTE_FILTERS,
  timesModalHref,
  timesResourceHref,
  type RouteFilter,
  type TimesAnswer,
  type TimesModalState,
} from '~/utils/departure-times';
import { NOSCRIPT_REFRESH_PARAM, noscriptRefreshOn } from '~/utils/countdown';
import { useT } from '~/i18n/i18n';
import home from '~/i18n/compiled/ko/home.js';

const TITLE_ID = 'times-dialog-title';
/** History state of the entry the opener pushed: closing can go back over it. */
const OPENED_HERE = 'timesDialogOpenedHere';

/**
 * The opener and, when `modal` is set, the open dialog. `initial` is the home loader's answer for
 * a request that had the modal open (the no-JavaScript path); `now` is epoch ms of the api's clock.
 */
export function DepartureTimesDialog({
  modal,
  initial,
  now,
}: {
  modal: TimesModalState | null;
  initial: TimesAnswer | null;
  now: number;
}) {
  const t = useT(home);
  const openerRef = useRef<HTMLAnchorElement>(null);
  // Stopped by the no-JavaScript switch: every link and form of the modal keeps it stopped.
  const refreshOff = !noscriptRefreshOn(useSearchParams()[0]);
  return (
    <>
      <Link
        ref={openerRef}
        to={`${timesModalHref({ route: 'all', sorted: false }, refreshOff)}#${NEXT_TIME_ID}`}
        state={{ [OPENED_HERE]: true }}
        preventScrollReset
        className="button times-open"
        aria-haspopup="dialog"
      >
        {t('times.open')}
      </Link>
      {modal && <TimesDialog modal={modal} initial={initial} now={now} openerRef={openerRef} refreshOff={refreshOff} />}
    </>
  );
}

function TimesDialog({
  modal,
  initial,
  now,
  openerRef,
  refreshOff,
}: {
  modal: TimesModalState;
  initial: TimesAnswer | null;
  now: number;
  openerRef: RefObject<HTMLAnchorElement>;
  refreshOff: boolean;
}) {
  const t = useT(home);
  const dialogRef = useRef<HTMLDialogElement>(null);
  const bodyRef = useRef<HTMLDivElement>(null);
  const navigate = useNavigate();
  const location = useLocation();
  const answer = useTimesAnswer(modal.route, initial);
  const closedHref = timesModalHref(null, refreshOff);

  useModalDialog(
    dialogRef,
    () => {
      openerRef.current?.focus();
      if (isOpenedHere(location.state)) navigate(-1);
      else navigate(closedHref, { replace: true, preventScrollReset: true });
    },
    // Closed by the URL (Back, Forward): give the focus back.
    () => openerRef.current?.focus(),
  );

  // Every view opens at its next departure (NEXT_TIME_ID, a third of the way down; without
  // JavaScript the URL fragment does it), at the top when all have left.
  const loaded = answer !== 'loading' && 'routes' in answer;
  useEffect(() => {
    const body = bodyRef.current;
    if (!body || !loaded) return;
    const next = body.querySelector<HTMLElement>(`#${NEXT_TIME_ID}`);
    body.scrollTop = next ? Math.max(0, next.offsetTop - body.clientHeight / 3) : 0;
  }, [loaded, modal.route, modal.sorted]);

  const apply = (form: HTMLFormElement) => {
    const data = new FormData(form);
    const route = parseRouteFilter(data.get('times') as string | null) ?? 'all';
    navigate(timesModalHref({ route, sorted: data.get('sort') === 'time' }, refreshOff), {
      replace: true,
      state: location.state,
      preventScrollReset: true,
    });
  };

  return (
    <dialog ref={dialogRef} open className="times-dialog" aria-labelledby={TITLE_ID}>
      <div className="times-dialog__header">
        <h2 id={TITLE_ID} className="times-dialog__title">
          {/* docs/product.md §2: the modal's title. */}
          {t('times.title')}
        </h2>
        <Link
          to={closedHref}
          replace
          preventScrollReset
          className="times-dialog__close"
          onClick={(event) => {
            event.preventDefault();
            dialogRef.current?.close();
          }}
        >
          {t('times.close')}
        </Link>
      </div>
      <form
        method="get"
        action={`/#${NEXT_TIME_ID}`}
        className="times-filter"
        onChange={(event) => apply(event.currentTarget)}
        onSubmit={(event) => {
          event.preventDefault();
          apply(event.currentTarget);
        }}
      >
        <input type="hidden" name="dir" value="down" />
        <fieldset className="times-filter__routes">
          <legend className="sr-only">{t('times.routeChoice')}</legend>
          {ROUTE_FILTERS.map((option) => (
            <label key={option} className="times-filter__option">
              <input type="radio" name="times" value={option} defaultChecked={option === modal.route} />
              {option === 'all' ? t('times.all') : option}
            </label>
          ))}
        </fieldset>
        {/* Drawn only with something in it (app/styles/departure-times.css). */}
        <div className="times-filter__row">
          {modal.route === 'all' && (
            <label className="times-filter__sort">
              <input type="checkbox" name="sort" value="time" defaultChecked={modal.sorted} />
              {/* docs/product.md §2: all times chronologically, regardless of route. */}
              {t('times.sort')}
            </label>
          )}
          {/* Only without JavaScript: with it, every change applies at once. */}
          <noscript>
            <button type="submit" className="button button--small">
              {t('times.apply')}
            </button>
          </noscript>
        </div>
        {refreshOff && <input type="hidden" name={NOSCRIPT_REFRESH_PARAM} value="off" />}
      </form>
      {/* Focusable, so the keyboard can scroll the list (it has nothing else to focus). */}
      {/* eslint-disable-next-line jsx-a11y/no-noninteractive-tabindex */}
      <div ref={bodyRef} className="times-dialog__body" role="region" aria-label={t('times.list')} tabIndex={0}>
        {answer === 'loading' ? (
          <p className="times-status" role="status">
            {t('times.loading')}
          </p>
        ) : 'message' in answer ? (
          <p className="times-status times-status--error" role="alert">
            {t('times.loadFailed')}
          </p>
        ) : (
          <DepartureTimeList routes={answer.routes} sorted={modal.sorted} now={now} />
        )}
      </div>
    </dialog>
  );
}

/** Loader answers already shown once: a later open loads afresh (docs/product.md §4: the data loads on open). */
const shownInitialAnswers = new WeakSet<TimesAnswer>();

/**
 * The times for `route`: the loader's `initial` answer when the page was loaded with the modal open
 * on that filter; otherwise loaded through the resource route whenever the filter changes
 * (a newer load cancels an older one), 'loading' until it answers.
 */
function useTimesAnswer(route: RouteFilter, initial: TimesAnswer | null): TimesAnswer | 'loading' {
  const fetcher = useFetcher<typeof clientLoader>();
  const [initialFits] = useState(() => initial?.route === route && !shownInitialAnswers.has(initial));
  const requested = useRef<RouteFilter | null>(initialFits ? route : null);

  useEffect(() => {
    if (initial) shownInitialAnswers.add(initial);
  }, [initial]);

  const { load } = fetcher;
  useEffect(() => {
    if (requested.current === route) return;
    requested.current = route;
    load(timesResourceHref(route));
  }, [route, load]);

  if (fetcher.state !== 'idle' || requested.current !== route) return 'loading';
  if (fetcher.data?.route === route) return fetcher.data;
  if (initialFits && initial?.route === route) return initial;
  return 'loading';
}

function isOpenedHere(state: unknown): boolean {
  return typeof state === 'object' && state !== null && (state as Record<string, unknown>)[OPENED_HERE] === true;
}
