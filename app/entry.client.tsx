/**
 * Hydrates the server-rendered document. https://remix.run/docs/en/2.17/file-conventions/entry.client
 *
 * Before hydrating, it keeps Chrome's install prompt for the install hint, and has the catalog of
 * the page's language (ADR 032; English's is a chunk of its own). After the page's load
 * event it registers the service worker (docs/decisions/009-installable-app.md),
 * never in the way of hydration or of the first requests. Only in production builds: the Remix
 * compiler replaces `process.env.NODE_ENV` with the build's mode, and only `npm run build` writes
 * public/sw.js (a development build has none, and a worker would outlive its live reloads).
 */
import { RemixBrowser } from '@remix-run/react';
import { startTransition, StrictMode } from 'react';
import { hydrateRoot } from 'react-dom/client';
import { captureInstallPrompt } from '~/components/install-hint';
import { englishCatalog, I18nProvider } from '~/i18n/i18n';
import { isLocale, DEFAULT_LOCALE } from '../contract/locales';

captureInstallPrompt();

// The page's language is the one the server rendered it in (<html lang>, app/root.tsx).
const { lang } = document.documentElement;
const locale = isLocale(lang) ? lang : DEFAULT_LOCALE;

if (process.env.NODE_ENV === 'production' && 'serviceWorker' in navigator) {
  const register = () => {
    navigator.serviceWorker.register('/sw.js').catch((error: unknown) => {
      console.error('[sw] registration failed:', error);
    });
  };
  if (document.readyState === 'complete') register();
  else window.addEventListener('load', register, { once: true });
}

void (locale === 'en' ? englishCatalog() : Promise.resolve(null)).then((english) =>
  startTransition(() => {
    hydrateRoot(
      document,
      <StrictMode>
        <I18nProvider locale={locale} english={english}>
          <RemixBrowser />
        </I18nProvider>
      </StrictMode>,
    );
  }),
);
