/** Rendering a whole route in English, in a memory router (docs/product.md §1 Languages; the parts: english.tsx). */
import type { ComponentType } from 'react';
import { createMemoryRouter, RouterProvider, type ActionFunction } from 'react-router-dom';
import { HANGUL, renderInEnglish } from './english';

/**
 * Renders `Component` (a route module's default export) at `url` (its path: `url` without the query)
 * with `loaderData`, inside the English provider; `action` answers the form's posts.
 */
export function renderRouteInEnglish(
  Component: ComponentType,
  { url, loaderData, action = () => null }: { url: string; loaderData: object; action?: ActionFunction },
) {
  const path = url.split('?')[0];
  const router = createMemoryRouter([{ id: 'page', path, Component, loader: () => loaderData, action }], {
    initialEntries: [url],
    hydrationData: { loaderData: { page: loaderData } },
  });
  return renderInEnglish(<RouterProvider router={router} future={{ v7_startTransition: true }} />);
}

/** The Hangul `container` shows outside the elements marked `lang="ko"` (none on an English page), as text. */
export function hangulOutsideKorean(container: HTMLElement): string[] {
  const copy = container.cloneNode(true) as HTMLElement;
  copy.querySelectorAll('[lang="ko"]').forEach((korean) => korean.remove());
  return (copy.textContent ?? '').split(/(?<=[.!?])\s+/).filter((sentence) => HANGUL.test(sentence));
}
