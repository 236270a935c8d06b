/**
 * The 상행/하행 toggle of the home screen (spec §2 Home screen; up is the default, spec §4).
 * Plain links (`/` and `/?dir=down`), so it works without JavaScript; with it, the arrow keys
 * move between the tabs (WAI-ARIA tabs pattern).
 */
import { Link, useNavigate } from '@remix-run/react';
import { useRef, type KeyboardEvent } from 'react';
import type { Direction } from '../../contract/transit';

const TABS: readonly { direction: Direction; label: string; href: string }[] = [
  { direction: 'up', label: '상행', href: '/' },
  { direction: 'down', label: '하행', href: '/?dir=down' },
];

/** Id of the tab element of `direction`, for the panel's aria-labelledby. */
export function tabId(direction: Direction): string {
  return `tab-${direction}`;
}

export function DirectionTabs({ selected, panelId }: { selected: Direction; panelId: string }) {
  const navigate = useNavigate();
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
    navigate(TABS[target].href, { replace: true, preventScrollReset: true });
  };

  return (
    <div className="tabs" role="tablist" aria-label="운행 방향">
      {TABS.map(({ direction, label, href }, index) => (
        <Link
          key={direction}
          ref={(element) => {
            tabRefs.current[index] = element;
          }}
          id={tabId(direction)}
          to={href}
          role="tab"
          aria-selected={direction === selected}
          aria-controls={panelId}
          className="tabs__tab"
          replace
          preventScrollReset
          onKeyDown={(event) => onKeyDown(event, index)}
        >
          {label}
        </Link>
      ))}
    </div>
  );
}
