/**
 * The home's view parameters (docs/product.md §4.1 Home, §4.2 Expected times modal): the tab, the
 * expected-times modal and its sort, and the no-JavaScript refresh switch. They change only what is
 * shown of the same data, so the home loader is not re-run when only they change, and the server
 * keeps one rendered page per URL made of them alone (ADR 023).
 */
import { NOSCRIPT_REFRESH_PARAM } from '~/utils/countdown';
import { ROUTE_FILTERS } from '~/utils/departure-times';

/** Each view parameter with the values the home knows for it. */
const VIEW_VALUES = new Map<string, readonly string[]>([
  ['dir', ['up', 'down']],
  ['times', ROUTE_FILTERS],
  ['sort', ['time']],
  [NOSCRIPT_REFRESH_PARAM, ['off']],
]);

/** The names of the home's view parameters. */
export const HOME_VIEW_PARAMS = [...VIEW_VALUES.keys()];

/**
 * The one spelling of the home view `params` ask for: its search without the `?` ('' for the plain
 * home), or null when `params` are not a home view (a parameter the home does not know, one given
 * twice, or a value it does not know). The parameters come in VIEW_VALUES's order, each only where it
 * changes the page: the up tab is the default, the times modal opens on the down tab only, and its
 * sort applies to `all` only (timesModalFromSearch). Every other spelling of a view is redirected to
 * this one, so each view has one URL and one kept page (ADR 023): HOME_VIEWS lists them all.
 */
export function homeViewSearch(params: URLSearchParams): string | null {
  const seen = new Map<string, string>();
  for (const [name, value] of params) {
    if (seen.has(name) || !VIEW_VALUES.get(name)?.includes(value)) return null;
    seen.set(name, value);
  }
  const view = new URLSearchParams();
  const down = seen.get('dir') === 'down';
  if (down) view.set('dir', 'down');
  const times = down ? seen.get('times') : undefined;
  if (times) view.set('times', times);
  if (times === 'all' && seen.get('sort') === 'time') view.set('sort', 'time');
  if (seen.get(NOSCRIPT_REFRESH_PARAM) === 'off') view.set(NOSCRIPT_REFRESH_PARAM, 'off');
  return view.toString();
}

/** Every home view's one spelling (homeViewSearch): the up and down tabs, the modal's filters and sort, each with the refresh on or off. */
export const HOME_VIEWS: readonly string[] = (() => {
  const modals = [
    [],
    ...ROUTE_FILTERS.map((times) => [['times', times]]),
    [
      ['times', 'all'],
      ['sort', 'time'],
    ],
  ];
  const tabs = [[], ...modals.map((modal) => [['dir', 'down'], ...modal])];
  return tabs.flatMap((tab) =>
    [[], [[NOSCRIPT_REFRESH_PARAM, 'off']]].map((refresh) => new URLSearchParams([...tab, ...refresh]).toString()),
  );
})();
