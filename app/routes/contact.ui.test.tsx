// @vitest-environment happy-dom
/**
 * /contact in the browser (a memory router with a stub loader; the action is covered against the
 * api in contact.test.ts): the character count in the textarea's hint follows the typing, while
 * the polite live region speaks only near the 2,000-character limit, not on every keystroke;
 * conform refuses empty content with the docs/product.md §5 message before anything is sent; and the docs/product.md §8
 * success message comes into a status region that was there before, takes the focus only right
 * after a send, and goes away when a new inquiry is typed.
 */
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
// NOTE: react-router-dom is Remix's own router (a dependency of @remix-run/react); its memory router
// runs the route module in a test without a Remix server.
import { createMemoryRouter, redirect, RouterProvider } from 'react-router-dom';
import Contact from '~/routes/contact';

afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

const honeypot = { nameField: 'name__confirm', tokenField: 'from__confirm', token: 'x' };

function renderContact(action: () => Response | null = () => null, url = '/contact') {
  const router = createMemoryRouter(
    [{ id: 'contact', path: '/contact', Component: Contact, loader: () => ({ honeypot }), action }],
    { initialEntries: [url], hydrationData: { loaderData: { contact: { honeypot } } } },
  );
  render(<RouterProvider router={router} future={{ v7_startTransition: true }} />);
}

const textarea = () => screen.getByLabelText('문의 내용') as HTMLTextAreaElement;
/** The live region beside the textarea (the status region above the form is the other polite one). */
const liveNotice = () => document.querySelector('.char-count__notice')!;
const hint = () => document.getElementById(textarea().getAttribute('aria-describedby')!.split(' ')[0])!;

const SENT = '문의가 접수되었습니다.';
const status = () => screen.getByRole('status');

async function send() {
  await act(async () => {
    fireEvent.click(screen.getByRole('button', { name: '문의 보내기' }));
  });
}

function type(value: string) {
  act(() => {
    fireEvent.input(textarea(), { target: { value } });
  });
}

describe('the character count', () => {
  it('the hint counts as one types; the live region stays silent far from the limit', () => {
    renderContact();
    expect(hint().textContent).toBe('2,000자까지 쓸 수 있습니다. 지금 0자');
    expect(liveNotice().getAttribute('aria-live')).toBe('polite');

    type('버스가 안 와요');
    expect(hint().textContent).toBe('2,000자까지 쓸 수 있습니다. 지금 8자');
    type('가'.repeat(1899));
    expect(hint().textContent).toBe('2,000자까지 쓸 수 있습니다. 지금 1,899자');
    expect(liveNotice().textContent).toBe('');
  });

  it('speaks once when 100 characters remain and once more at the limit, not per keystroke', () => {
    renderContact();
    type('가'.repeat(1900));
    expect(liveNotice().textContent).toBe('남은 글자가 100자 이하입니다.');
    type('가'.repeat(1950));
    // The same sentence: the live region's text does not change, so nothing new is read out.
    expect(liveNotice().textContent).toBe('남은 글자가 100자 이하입니다.');
    expect(hint().textContent).toBe('2,000자까지 쓸 수 있습니다. 지금 1,950자');
    type('가'.repeat(2000));
    expect(liveNotice().textContent).toBe('2,000자를 모두 썼습니다. 더 입력되지 않습니다.');
    expect(textarea().maxLength).toBe(2000);
  });

  it('counts a line break once, as the browser’s maxlength does', () => {
    renderContact();
    type('가\r\n나\n다');
    expect(hint().textContent).toBe('2,000자까지 쓸 수 있습니다. 지금 5자');
  });
});

it("refuses whitespace-only content in the browser with the spec's message, sending nothing", async () => {
  const action = vi.fn(() => null);
  renderContact(action);
  type('   ');
  await send();
  expect(action).not.toHaveBeenCalled();
  expect(textarea().getAttribute('aria-invalid')).toBe('true');
  expect(screen.getByRole('alert').textContent).toContain('문의 내용을 입력해주세요');
});

describe('the success message (docs/product.md §8)', () => {
  it('comes into the status region that was already there, and takes the focus from the gone form', async () => {
    const action = vi.fn(() => redirect('/contact?sent=1', 303));
    renderContact(action);
    const region = status();
    expect(region.getAttribute('aria-live')).toBe('polite');
    expect(region.textContent).toBe('');

    type('1150번이 지도에 안 보여요');
    await send();
    expect(action).toHaveBeenCalledTimes(1);
    // The same element: a screen reader hears the text arrive, not a region born full.
    expect(status()).toBe(region);
    expect(region.textContent).toBe(SENT);
    expect(document.activeElement).toBe(screen.getByText(SENT));
    expect(textarea().value).toBe('');
  });

  it('goes away when a new inquiry is typed, and comes back, focused, after the next send', async () => {
    renderContact(() => redirect('/contact?sent=1', 303));
    type('첫 번째 문의');
    await send();
    expect(status().textContent).toBe(SENT);

    act(() => textarea().focus());
    type('두');
    expect(status().textContent).toBe('');
    expect(document.activeElement).toBe(textarea());
    type('두 번째 문의');
    await send();
    expect(status().textContent).toBe(SENT);
    expect(document.activeElement).toBe(screen.getByText(SENT));
  });

  it('on a page loaded at /contact?sent=1 (a reload): shown, the focus left where it is', () => {
    renderContact(undefined, '/contact?sent=1');
    expect(status().textContent).toBe(SENT);
    expect(document.activeElement).toBe(document.body);
  });
});
