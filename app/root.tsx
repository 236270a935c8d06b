/**
 * The one layout of every route (spec §2): the header linking to /, the content outlet in a
 * mobile frame (max 390px, spec §1/§9) and the side logo of wide screens. Korean, hotpink theme.
 */
import type { LinksFunction } from '@remix-run/node';
import { Links, Meta, Outlet, Scripts, ScrollRestoration, type MetaFunction } from '@remix-run/react';
import type { ReactNode } from 'react';
import { useNonce } from '~/components/nonce-provider';
import { RouteError } from '~/components/route-error';
import { SiteHeader, SITE_NAME } from '~/components/site-header';
import appStyles from '~/styles/app.css';

/** Spec §9: primary colour hotpink (the browser UI colour on phones too). */
const THEME_COLOR = '#ff69b4';

export const links: LinksFunction = () => [
  { rel: 'stylesheet', href: appStyles },
  { rel: 'icon', href: '/logo.svg', type: 'image/svg+xml' },
];

/** Shared by the app and the root ErrorBoundary, so an error keeps the header and the frame. */
export function Layout({ children }: { children: ReactNode }) {
  const nonce = useNonce();
  return (
    <html lang="ko">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="theme-color" content={THEME_COLOR} />
        <Meta />
        <Links />
      </head>
      <body>
        <div className="side-logo" aria-hidden="true" />
        <div className="frame">
          <SiteHeader />
          <main className="content">{children}</main>
        </div>
        {/* Scrolls to the top on every new navigation and restores the position on back/forward (spec §2). */}
        <ScrollRestoration nonce={nonce} />
        <Scripts nonce={nonce} />
      </body>
    </html>
  );
}

export default function App() {
  return <Outlet />;
}

export const meta: MetaFunction = () => [{ title: SITE_NAME }];

export function ErrorBoundary() {
  return <RouteError />;
}
