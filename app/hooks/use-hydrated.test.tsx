// @vitest-environment happy-dom
/**
 * useHydrated: false in the server's HTML and in the hydration render (so hydration matches), true
 * once hydrated; a component mounted after the page hydrated (a client-side navigation) renders
 * true from its first render, with no false frame.
 */
import { act } from '@testing-library/react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { renderToString } from 'react-dom/server';
import { useHydrated } from './use-hydrated';

function Probe({ seen }: { seen: boolean[] }) {
  const hydrated = useHydrated();
  seen.push(hydrated);
  return <p>{hydrated ? 'hydrated' : 'server'}</p>;
}

it('is false on the server and while hydrating, true after, and true at once for what mounts later', async () => {
  const server: boolean[] = [];
  const html = renderToString(<Probe seen={server} />);
  expect(html).toBe('<p>server</p>');
  expect(server).toEqual([false]);

  const page = document.createElement('div');
  page.innerHTML = html;
  document.body.append(page);
  onTestFinished(() => page.remove());
  const errors: unknown[] = [];
  const hydrating: boolean[] = [];
  await act(async () => {
    const root = hydrateRoot(page, <Probe seen={hydrating} />, { onRecoverableError: (error) => errors.push(error) });
    onTestFinished(() => act(() => root.unmount()));
  });
  expect(errors).toEqual([]);
  expect(hydrating[0]).toBe(false);
  expect(hydrating.at(-1)).toBe(true);
  expect(page.textContent).toBe('hydrated');

  const later: boolean[] = [];
  const next = document.createElement('div');
  document.body.append(next);
  onTestFinished(() => next.remove());
  const root = createRoot(next);
  onTestFinished(() => act(() => root.unmount()));
  await act(async () => root.render(<Probe seen={later} />));
  expect(later).toEqual([true]);
  expect(next.textContent).toBe('hydrated');
});
