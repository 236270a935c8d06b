/**
 * The visible refresh countdown (docs/product.md §2.3 Home screen): mm:ss, or the refreshing text at 0 or below.
 * It counts only with JavaScript; the server's HTML says instead how the page refreshes without it
 * (the home's `<noscript>` meta refresh, every REFRESH_INTERVAL_SEC seconds) with a link that turns
 * that off or on again (NOSCRIPT_REFRESH_PARAM; WCAG 2.2.1 lets the person stop a time limit).
 */
import { Link, useSearchParams } from '@remix-run/react';
import { formatCountdown, noscriptRefreshOn, NOSCRIPT_REFRESH_PARAM, REFRESH_INTERVAL_SEC } from '~/utils/countdown';
import { useT } from '~/i18n/i18n';
import home from '~/i18n/compiled/ko/home.js';
import { useHydrated } from '~/hooks/use-hydrated';

export function RefreshCountdown({ secondsLeft }: { secondsLeft: number }) {
  const t = useT(home);
  const hydrated = useHydrated();
  return (
    <p className="countdown">
      {!hydrated ? (
        <NoscriptRefreshSwitch />
      ) : secondsLeft <= 0 ? (
        t('countdown.refreshing')
      ) : (
        <>
          <span className="countdown__label">{t('countdown.next')}</span>{' '}
          <span className="countdown__value">{formatCountdown(secondsLeft)}</span>
        </>
      )}
    </p>
  );
}

/** The server's HTML: the refresh interval and the link that stops or restarts the no-JS refresh (the URL keeps its other parameters). */
function NoscriptRefreshSwitch() {
  const t = useT(home);
  const [searchParams] = useSearchParams();
  const on = noscriptRefreshOn(searchParams);
  const toggled = new URLSearchParams(searchParams);
  if (on) toggled.set(NOSCRIPT_REFRESH_PARAM, 'off');
  else toggled.delete(NOSCRIPT_REFRESH_PARAM);
  const to = { search: toggled.size > 0 ? `?${toggled}` : '' };
  return (
    <noscript>
      {on ? t('countdown.every', { seconds: REFRESH_INTERVAL_SEC }) : t('countdown.off')}
      <Link to={to} replace>
        {on ? t('countdown.stop') : t('countdown.restart')}
      </Link>
    </noscript>
  );
}
