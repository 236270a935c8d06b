/**
 * The one layout of every route (docs/product.md §2): the header linking to /, the content outlet in a
 * mobile frame (max 390px, docs/product.md §1/§9) and the side logo of wide screens. Korean, hotpink theme.
 */
import { json, type LinksFunction, type LoaderFunctionArgs } from '@remix-run/node';
import {
  Links,
  Meta,
  Outlet,
  Scripts,
  ScrollRestoration,
  useRouteLoaderData,
  type MetaFunction,
  type ShouldRevalidateFunction,
} from '@remix-run/react';
import { useEffect, type ReactNode } from 'react';
import { Analytics } from '~/components/analytics';
import { InlineStylesheet } from '~/components/inline-stylesheet';
import { InstallPromptCapture } from '~/components/install-hint';
import { useScriptMarker } from '~/components/script-marker-provider';
import { RouteError } from '~/components/route-error';
import { SiteHeader } from '~/components/site-header';
import type { loader as homeLoader } from '~/routes/_index';
import { useHydrated } from '~/hooks/use-hydrated';
import { metaT, useLocale, useT } from '~/i18n/i18n';
import common from '~/i18n/compiled/ko/common.js';
import { localeOfRequest } from '~/i18n/locale.server';
import type { Locale } from '../contract/locales';

/** The manifest of each language (public/): the same app, named and described in it. */
const MANIFESTS: Record<Locale, string> = { ko: '/manifest.webmanifest', en: '/manifest.en.webmanifest' };

/** docs/product.md §9: primary colour hotpink (the browser UI colour on phones too). */
const THEME_COLOR = '#ff69b4';

// The app stylesheet is inlined by the server (InlineStylesheet), not linked: no request before the first paint.
export const links: LinksFunction = () => [
  { rel: 'icon', href: '/logo.svg', type: 'image/svg+xml' },
  // Installable app: the home screen icon iOS reads (the manifest, per language, is linked by Layout).
  { rel: 'apple-touch-icon', href: '/icons/apple-touch-icon.png' },
];

/**
 * What every document needs at server render: PublicConfig's analytics id, and the page's language
 * (locale.server.ts; the meta functions read it, metaT). Both are fixed for the document: the
 * configuration for the process, the language until the switch (a plain link, so a new document)
 * changes it. So they are read once per document and never again on client navigations
 * (shouldRevalidate).
 */
export function loader({ request, context }: LoaderFunctionArgs) {
  return json({ analyticsId: context.publicConfig?.analyticsId ?? null, locale: localeOfRequest(request) });
}

export const shouldRevalidate: ShouldRevalidateFunction = () => false;

/** Shared by the app and the root ErrorBoundary, so an error keeps the header and the frame. */
export function Layout({ children }: { children: ReactNode }) {
  const marker = useScriptMarker();
  const analyticsId = useRouteLoaderData<typeof loader>('root')?.analyticsId ?? null;
  // The home's blocking service notice makes the header inert too (the home makes itself inert).
  const blocked = Boolean(useRouteLoaderData<typeof homeLoader>('routes/_index')?.notice);
  // Hydrated: <html data-hydrated>, the sign the browser tests wait for before they act (pages
  // hydrate after their first paint, ADR 026), once useHydrated's switch has rendered, here as
  // everywhere below. Every page uses it here, so what mounts after the first page starts hydrated.
  const hydrated = useHydrated();
  const locale = useLocale();
  const t = useT(common);
  useEffect(() => {
    if (hydrated) document.documentElement.dataset.hydrated = '';
  }, [hydrated]);
  return (
    <html lang={locale}>
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="theme-color" content={THEME_COLOR} />
        {/* Opened from the home screen: full screen, titled like the manifest (older iOS reads only these). */}
        <meta name="mobile-web-app-capable" content="yes" />
        <meta name="apple-mobile-web-app-capable" content="yes" />
        <meta name="apple-mobile-web-app-title" content={t('site.name')} />
        {/* The installable app's manifest in the page's language: its name and description (docs/decisions/009-installable-app.md). */}
        <link rel="manifest" href={MANIFESTS[locale]} />
        <Meta />
        <InlineStylesheet />
        <Links />
        <InstallPromptCapture marker={marker} />
        <Analytics measurementId={analyticsId} />
      </head>
      <body>
        <div className="side-logo" aria-hidden="true" />
        <div className="frame">
          <SiteHeader inert={blocked} />
          <main className="content">{children}</main>
        </div>
        {/* Scrolls to the top on every new navigation and restores the position on back/forward (docs/product.md §2). */}
        <ScrollRestoration nonce={marker} />
        <Scripts nonce={marker} />
      </body>
    </html>
  );
}

export default function App() {
  return <Outlet />;
}

export const meta: MetaFunction = ({ matches }) => [{ title: metaT(matches, common)('site.name') }];

export function ErrorBoundary() {
  return <RouteError />;
}
