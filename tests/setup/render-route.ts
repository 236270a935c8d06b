/** Server-rendering one route module for web tests, the way Remix renders a document, into a DOM to read. */
import { Window } from 'happy-dom';
import { createElement, type ComponentType } from 'react';
import { renderToString } from 'react-dom/server';
import type { ActionFunction, LoaderFunction } from 'react-router-dom';
import { createStaticHandler, createStaticRouter, StaticRouterProvider } from 'react-router-dom/server';
import { WEB_ORIGIN } from './admin-web';

/**
 * Server-renders `Component` (a route module's default export) at `url` (matched by `path`) with
 * `loaderData`, and `actionData` as after a POST; the HTML is then parsed into a DOM to read.
 */
export async function renderRoute(
  Component: ComponentType,
  { path, url, loaderData, actionData }: { path: string; url: string; loaderData: object; actionData?: object },
): Promise<Document> {
  const init: RequestInit = actionData === undefined ? {} : { method: 'POST', body: new URLSearchParams() };
  const route = { path, Component, loader: () => loaderData, action: () => actionData ?? null };
  return (await runRoute(route, new Request(new URL(url, WEB_ORIGIN), init))).document;
}

/**
 * Runs one route for `request` as Remix would (its loader, then the page or its ErrorBoundary) and
 * parses the HTML into a DOM.
 * @returns the status the route answered and the DOM.
 */
export async function runRoute(
  route: {
    path: string;
    Component: ComponentType;
    ErrorBoundary?: ComponentType;
    loader: LoaderFunction;
    action?: ActionFunction;
  },
  request: Request,
): Promise<{ status: number; document: Document }> {
  const handler = createStaticHandler([{ id: 'page', ...route }]);
  const context = await handler.query(request);
  if (context instanceof Response) throw new Error(`render: the static handler answered ${context.status}`);
  const router = createStaticRouter(handler.dataRoutes, context);
  const html = renderToString(createElement(StaticRouterProvider, { router, context, hydrate: false }));
  const window = new Window({ url: WEB_ORIGIN });
  window.document.body.innerHTML = html;
  return { status: context.statusCode, document: window.document as unknown as Document };
}
