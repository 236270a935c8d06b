/** The error screens shared by the routes' ErrorBoundary exports (house style: one on every route), in the page's language. */
import { isRouteErrorResponse, Link, useRouteError } from '@remix-run/react';
import { useHydrated } from '~/hooks/use-hydrated';
import { useT } from '~/i18n/i18n';
import common from '~/i18n/compiled/ko/common.js';

/** The 404 page body: used by the catch-all route and for 404 responses caught by a boundary. */
export function NotFound() {
  const t = useT(common);
  return <ErrorPanel title={t('error.notFoundTitle')}>{t('error.notFound')}</ErrorPanel>;
}

/**
 * Renders the error caught by the enclosing route's ErrorBoundary, without its details (docs/product.md §8:
 * error codes are not shown). A client-side navigation that failed because the phone is offline
 * says so, in the words of the service worker's offline page (app/offline.html).
 */
export function RouteError() {
  const t = useT(common);
  const error = useRouteError();
  const hydrated = useHydrated();
  if (hydrated && !navigator.onLine)
    return <ErrorPanel title={t('error.offlineTitle')}>{t('error.offline')}</ErrorPanel>;
  if (isRouteErrorResponse(error) && error.status === 404) return <NotFound />;
  if (isRouteErrorResponse(error) && error.status === 403) {
    return <ErrorPanel title={t('error.forbiddenTitle')}>{t('error.forbidden')}</ErrorPanel>;
  }
  return <ErrorPanel title={t('error.title')}>{t('error.text')}</ErrorPanel>;
}

/** An error screen: its heading, one sentence, and a way home. */
export function ErrorPanel({ title, children }: { title: string; children: string }) {
  const t = useT(common);
  return (
    <section className="error-panel" aria-labelledby="error-title">
      <h1 id="error-title">{title}</h1>
      <p>{children}</p>
      <Link to="/" className="button">
        {t('error.home')}
      </Link>
    </section>
  );
}
