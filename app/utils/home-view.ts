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
 * Whether `params` hold only view parameters, each at most once and with a value the home knows:
 * such URLs are few (a few dozen orders and values), so each may have its page kept.
 */
export function isHomeView(params: URLSearchParams): boolean {
  const seen = new Set<string>();
  for (const [name, value] of params) {
    if (seen.has(name) || !VIEW_VALUES.get(name)?.includes(value)) return false;
    seen.add(name);
  }
  return true;
}
