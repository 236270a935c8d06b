/** Catch-all: any URL no other route matches answers 404 with the Korean not-found page (house style). */
import { json } from '@remix-run/node';
import type { MetaFunction } from '@remix-run/react';
import { NotFound, RouteError } from '~/components/route-error';
import { SITE_NAME } from '~/components/site-header';

export function loader() {
  return json(null, { status: 404 });
}

/** A form posted to an unknown URL gets the same 404 page. */
export const action = loader;

export default function NotFoundRoute() {
  return <NotFound />;
}

export const meta: MetaFunction = () => [{ title: `페이지를 찾을 수 없습니다 — ${SITE_NAME}` }];

export function ErrorBoundary() {
  return <RouteError />;
}
