// @vitest-environment happy-dom
/**
 * The admin ad pages in the browser, in a memory router with stub loaders (what the real loaders
 * answer is covered against the api in admin-only.ads.pages.test.ts, admin-only.ads.decisions.test.ts
 * and admin-only.ads.edit.*.test.ts):
 * the detail's link-open button (docs/product.md §2, §5: http(s) only, otherwise the alert 'invalid URL'), and
 * the edit card's done, which sends nothing when unchanged (docs/product.md §4).
 */
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
// NOTE: react-router-dom is Remix's own router (a dependency of @remix-run/react); its memory router
// runs the route module in a test without a Remix server.
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import type { ManagedAd } from '../../contract/ads';
import ApplicationDetail from '~/routes/admin-only.ads.$type.confirm.$id';
import AdEditPage from '~/routes/admin-only.ads.edit.$type';

afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

/** What the detail loader answers for a pending web application with `redirectUrl`. */
const detailData = (redirectUrl: string | null) => ({
  type: 'web',
  application: {
    id: 7,
    title: '캠퍼스 카페',
    applicantName: '홍길동',
    applicantPhone: '01012345678',
    applicantEmail: 'owner@example.com',
    duration: 1,
    redirectUrl,
    contentForManager: null,
    imageUrl: '/images/web-00000000-0000-4000-8000-000000000000.png',
    content: null,
    status: 'pending',
  },
  flash: null,
  confirm: null,
});

function renderDetail(redirectUrl: string | null) {
  const data = detailData(redirectUrl);
  const router = createMemoryRouter(
    [{ id: 'detail', path: '/admin-only/ads/:type/confirm/:id', Component: ApplicationDetail, loader: () => data }],
    { initialEntries: ['/admin-only/ads/web/confirm/7'], hydrationData: { loaderData: { detail: data } } },
  );
  render(<RouterProvider router={router} future={{ v7_startTransition: true }} />);
}

describe('application detail: link open (docs/product.md §2, §5)', () => {
  it("a javascript: link is no link: the button alerts 'invalid URL'", () => {
    const alert = vi.spyOn(window, 'alert').mockImplementation(() => {});
    renderDetail('javascript:alert(1)');
    expect(document.querySelector('a[href="javascript:alert(1)"]')).toBeNull();
    expect(document.querySelectorAll('a[target="_blank"]')).toHaveLength(0);
    fireEvent.click(screen.getByRole('button', { name: '링크 열기' }));
    expect(alert).toHaveBeenCalledTimes(1);
    expect(alert).toHaveBeenCalledWith('invalid URL');
  });

  it("other schemes alert 'invalid URL' too (data:, ftp:, a relative path)", () => {
    const alert = vi.spyOn(window, 'alert').mockImplementation(() => {});
    for (const url of ['data:text/html,<b>hi</b>', 'ftp://files.example.com/ad', '/admin-only']) {
      renderDetail(url);
      fireEvent.click(screen.getByRole('button', { name: '링크 열기' }));
      expect(alert).toHaveBeenLastCalledWith('invalid URL');
      cleanup();
    }
    expect(alert).toHaveBeenCalledTimes(3);
  });

  it('an https link opens in a new tab with noopener, and alerts nothing', () => {
    const alert = vi.spyOn(window, 'alert').mockImplementation(() => {});
    renderDetail('https://cafe.example.com/menu');
    const link = screen.getByRole('link', { name: '링크 열기 (새 창)' });
    expect(link.getAttribute('href')).toBe('https://cafe.example.com/menu');
    expect(link.getAttribute('target')).toBe('_blank');
    expect(link.getAttribute('rel')?.split(' ')).toContain('noopener');
    expect(screen.queryByRole('button', { name: '링크 열기' })).toBeNull();
    expect(alert).not.toHaveBeenCalled();
  });
});

const AD: ManagedAd = {
  id: 3,
  title: '캠퍼스 카페',
  redirectUrl: 'https://cafe.example.com/',
  imageUrl: '/images/web-00000000-0000-4000-8000-000000000000.png',
};

/** The edit page of web with `AD` in edit (?edit=3); `action` stands in for the route's action. */
function renderEditing(action: (args: { request: Request }) => Promise<unknown>) {
  const data = { type: 'web', ads: [AD], failed: false, flash: null, edit: AD.id, remove: null };
  const loader = vi.fn(() => ({ ...data, edit: null }));
  const router = createMemoryRouter(
    [{ id: 'edit', path: '/admin-only/ads/edit/:type', Component: AdEditPage, loader, action }],
    { initialEntries: ['/admin-only/ads/edit/web?edit=3'], hydrationData: { loaderData: { edit: data } } },
  );
  render(<RouterProvider router={router} future={{ v7_startTransition: true }} />);
  return { router, loader };
}

describe('edit card: done (docs/product.md §4)', () => {
  it('unchanged: nothing is sent, the card leaves edit mode', async () => {
    const action = vi.fn(async () => null);
    const { router } = renderEditing(action);
    expect(screen.getByRole('textbox', { name: '제목' })).toBeTruthy();
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'done' })));
    expect(action).not.toHaveBeenCalled();
    expect(router.state.location.search).toBe('');
    expect(screen.queryByRole('textbox', { name: '제목' })).toBeNull();
    expect(document.querySelector('.ad-card__title')?.textContent).toBe('캠퍼스 카페');
  });

  it('a new title: the form is posted with intent save', async () => {
    let sent: FormData | undefined;
    const action = vi.fn(async ({ request }: { request: Request }) => {
      sent = await request.formData();
      return null;
    });
    renderEditing(action);
    fireEvent.change(screen.getByRole('textbox', { name: '제목' }), { target: { value: '새 제목' } });
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'done' })));
    expect(action).toHaveBeenCalledTimes(1);
    expect(sent?.get('intent')).toBe('save');
    expect(sent?.get('title')).toBe('새 제목');
    expect(sent?.get('id')).toBe('3');
  });
});

describe('edit card: a replacement image is previewed before done (docs/product.md §4.6)', () => {
  const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  const GIF = new Uint8Array([0x47, 0x49, 0x46, 0x38, 0x39, 0x61]);

  /** The object URLs made and revoked, as the browser would hand them out. */
  function objectUrls() {
    let made = 0;
    const create = vi.spyOn(URL, 'createObjectURL').mockImplementation(() => `blob:preview-${++made}`);
    const revoke = vi.spyOn(URL, 'revokeObjectURL').mockImplementation(() => {});
    return { create, revoke };
  }

  const pick = async (bytes: Uint8Array<ArrayBuffer>, name: string) => {
    const input = screen.getByLabelText(/이미지 바꾸기/) as HTMLInputElement;
    const file = new File([bytes], name, { type: 'image/png' });
    Object.defineProperty(input, 'files', { value: [file], configurable: true });
    await act(async () => fireEvent.change(input));
    return file;
  };
  const thumb = () => document.querySelector('.ad-card__thumb img');

  it('shows the picked image in the card with its alternative text, and revokes each URL on change and unmount', async () => {
    const { create, revoke } = objectUrls();
    renderEditing(vi.fn(async () => null));
    expect(thumb()?.getAttribute('src')).toBe(AD.imageUrl);
    expect(thumb()?.getAttribute('alt')).toBe('');

    const first = await pick(PNG, 'new.png');
    expect(create).toHaveBeenCalledWith(first);
    expect(thumb()?.getAttribute('src')).toBe('blob:preview-1');
    expect(thumb()?.getAttribute('alt')).toBe('캠퍼스 카페의 새 이미지 미리보기');
    expect(screen.getByText('새 이미지를 카드에 미리 보여드립니다. done을 눌러야 저장됩니다.')).toBeTruthy();

    await pick(GIF, 'other.gif');
    expect(revoke).toHaveBeenCalledWith('blob:preview-1');
    expect(thumb()?.getAttribute('src')).toBe('blob:preview-2');

    cleanup();
    expect(revoke).toHaveBeenLastCalledWith('blob:preview-2');
  });

  it('previews no file that is not a jpg, png or gif by its first bytes: the card keeps its image', async () => {
    const { create } = objectUrls();
    renderEditing(vi.fn(async () => null));
    await pick(new Uint8Array(new TextEncoder().encode('not an image')), 'menu.png');
    expect(create).not.toHaveBeenCalled();
    expect(thumb()?.getAttribute('src')).toBe(AD.imageUrl);
  });

  it('cancel leaves edit mode and drops the preview', async () => {
    const { revoke } = objectUrls();
    renderEditing(vi.fn(async () => null));
    await pick(PNG, 'new.png');
    await act(async () => fireEvent.click(screen.getByRole('link', { name: '취소' })));
    expect(revoke).toHaveBeenCalledWith('blob:preview-1');
    expect(thumb()?.getAttribute('src')).toBe(AD.imageUrl);
  });
});
