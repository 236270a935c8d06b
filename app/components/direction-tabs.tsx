/**
 * The 상행/하행 toggle of the home screen (docs/product.md §2.3 Home screen; up is the default, docs/product.md §4).
 * Plain links (`/` and `/?dir=down`), so it works without JavaScript; with it, the arrow keys
 * move between the tabs (WAI-ARIA tabs pattern).
 */
import { Link, useNavigate, useSearchParams } from '@remix-run/react';
import { useRef, type KeyboardEvent } from 'react';
import type { Direction } from '../../contract/transit';
import { noscriptRefreshOn, NOSCRIPT_REFRESH_PARAM } from '~/utils/countdown';
import { useT } from '~/i18n/i18n';
import home from '~/i18n/compiled/ko/home.js';

const TABS: readonly { direction: Direction; label: keyof typeof home }[] = [
  { direction: 'up', label: 'tabs.up' },
  { direction: 'down', label: 'tabs.down' },
];

/** A tab's link: `/` or `/?dir=down`, keeping the no-JS refresh switched off when it is (WCAG 2.2.1). */
function tabHref(direction: Direction, refreshOn: boolean): string {
  const params = new URLSearchParams();
  if (direction === 'down') params.set('dir', 'down');
  if (!refreshOn) params.set(NOSCRIPT_REFRESH_PARAM, 'off');
  return params.size > 0 ? `/?${params}` : '/';
}

/** Id of the tab element of `direction`, for the panel's aria-labelledby. */
export function tabId(direction: Direction): string {
  return `tab-${direction}`;
}

export function DirectionTabs({ selected, panelId }: { selected: Direction; panelId: string }) {
  const t = useT(home);
  const navigate = useNavigate();
  const refreshOn = noscriptRefreshOn(useSearchParams()[0]);
  const tabRefs = useRef<(HTMLAnchorElement | null)[]>([]);

  const onKeyDown = (event: KeyboardEvent<HTMLAnchorElement>, index: number) => {
    const last = TABS.length - 1;
    const target = {
      ArrowRight: index === last ? 0 : index + 1,
      ArrowLeft: index === 0 ? last : index - 1,
      Home: 0,
      End: last,
    }[event.key];
    if (target === undefined) return;
    event.preventDefault();
    tabRefs.current[target]?.focus();
    navigate(tabHref(TABS[target].direction, refreshOn), { replace: true, preventScrollReset: true });
  };

  return (
    <div className="tabs" role="tablist" aria-label={t('tabs.label')}>
      {TABS.map(({ direction, label }, index) => (
        <Link
          key={direction}
          ref={(element) => {
            tabRefs.current[index] = element;
          }}
          id={tabId(direction)}
          to={tabHref(direction, refreshOn)}
          role="tab"
          aria-selected={direction === selected}
          aria-controls={panelId}
          className="tabs__tab"
          replace
          preventScrollReset
          onKeyDown={(event) => onKeyDown(event, index)}
        >
          {t(label)}
        </Link>
      ))}
    </div>
  );
}
