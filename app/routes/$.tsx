/** Catch-all: any URL no other route matches answers 404 with the not-found page, in the page's language (house style). */
import { json } from '@remix-run/node';
import type { MetaFunction } from '@remix-run/react';
import { NotFound, RouteError } from '~/components/route-error';
import { metaT } from '~/i18n/i18n';
import common from '~/i18n/compiled/ko/common.js';

export function loader() {
  return json(null, { status: 404 });
}

/** A form posted to an unknown URL gets the same 404 page. */
export const action = loader;

export default function NotFoundRoute() {
  return <NotFound />;
}

export const meta: MetaFunction = ({ matches }) => {
  const t = metaT(matches, common);
  return [{ title: t('error.notFoundPageTitle', { name: t('site.name') }) }];
};

export function ErrorBoundary() {
  return <RouteError />;
}
