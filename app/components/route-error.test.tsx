// @vitest-environment happy-dom
import { cleanup, render, screen } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import { RouteError } from '~/components/route-error';

/** A route whose loader throws `error`, with RouteError as its boundary. */
async function renderFailure(error: unknown) {
  const router = createMemoryRouter([
    {
      path: '/',
      loader: () => {
        throw error;
      },
      Component: () => null,
      ErrorBoundary: RouteError,
    },
  ]);
  render(<RouterProvider router={router} />);
  return screen.findByRole('heading', { level: 1 });
}

const setOnline = (online: boolean) =>
  Object.defineProperty(navigator, 'onLine', { configurable: true, get: () => online });

afterEach(() => {
  cleanup();
  setOnline(true);
});

describe('RouteError', () => {
  it('says a failed navigation is the connection when the phone is offline', async () => {
    setOnline(false);
    await renderFailure(new TypeError('Failed to fetch'));
    // The offline words come once hydrated (the server's render cannot know): wait for that render.
    expect(await screen.findByRole('heading', { level: 1, name: '오프라인 상태입니다' })).toBeTruthy();
    expect(screen.getByText(/인터넷에 연결되어 있어야 볼 수 있습니다/)).toBeTruthy();
  });

  it('keeps the 404 and the generic message online, without details', async () => {
    expect((await renderFailure(new Response(null, { status: 404 }))).textContent).toBe('페이지를 찾을 수 없습니다.');
    cleanup();
    expect((await renderFailure(new Error('secret detail'))).textContent).toBe('문제가 발생했습니다.');
    expect(screen.queryByText(/secret detail/)).toBeNull();
  });
});
