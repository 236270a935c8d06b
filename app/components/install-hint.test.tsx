// @vitest-environment happy-dom
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { renderToString } from 'react-dom/server';

const CHROME_ANDROID =
  'Mozilla/5.0 (Linux; Android 14; Pixel 7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Mobile Safari/537.36';
const IPHONE_SAFARI =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';
/** iPadOS Safari asks for desktop sites: a Mac's user agent, told apart by its touch screen. */
const DESKTOP_SAFARI =
  'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Safari/605.1.15';
const IPHONE_KAKAOTALK =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 KAKAOTALK 10.8.5';
const IPHONE_CHROME =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) CriOS/126.0.6478.54 Mobile/15E148 Safari/604.1';

/** A fresh copy of the module (its install prompt state is per page), listening as entry.client makes it. */
async function loadHint() {
  vi.resetModules();
  const module = await import('~/components/install-hint');
  module.captureInstallPrompt();
  return module;
}

function setBrowser({
  userAgent = CHROME_ANDROID,
  maxTouchPoints = 5,
  standalone = false,
  iosStandalone,
}: { userAgent?: string; maxTouchPoints?: number; standalone?: boolean; iosStandalone?: boolean } = {}) {
  Object.defineProperty(navigator, 'userAgent', { value: userAgent, configurable: true });
  Object.defineProperty(navigator, 'maxTouchPoints', { value: maxTouchPoints, configurable: true });
  Object.defineProperty(navigator, 'standalone', { value: iosStandalone, configurable: true });
  Object.defineProperty(window, 'matchMedia', {
    configurable: true,
    value: (query: string) => ({ matches: query === '(display-mode: standalone)' && standalone, media: query }),
  });
}

/** Chrome's event, whose prompt the person answers with `outcome`. */
const promptEvent = (outcome: 'accepted' | 'dismissed') =>
  Object.assign(new Event('beforeinstallprompt', { cancelable: true }), {
    prompt: vi.fn(async () => undefined),
    userChoice: Promise.resolve({ outcome, platform: 'web' }),
  });

/** Chrome firing its event at the page (promptEvent). */
function firePrompt(outcome: 'accepted' | 'dismissed' = 'accepted') {
  const event = promptEvent(outcome);
  act(() => {
    window.dispatchEvent(event);
  });
  return event;
}

const hint = () => screen.queryByRole('region', { name: '홈 화면에 외대 버스 추가' });

beforeEach(() => {
  localStorage.clear();
  setBrowser();
});
afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

describe('InstallHint', () => {
  it('renders nothing on the server, whatever the browser', async () => {
    setBrowser({ userAgent: IPHONE_SAFARI });
    const { InstallHint } = await loadHint();
    expect(renderToString(<InstallHint />)).toBe('');
  });

  it('takes the install prompt the head script kept before the scripts ran', async () => {
    vi.resetModules();
    const { EARLY_CAPTURE } = await import('~/components/install-hint');
    // The inline script, as the document runs it before any module (its listener caught, not left on window).
    let early: ((event: Event) => void) | undefined;
    new Function('addEventListener', EARLY_CAPTURE)((type: string, listener: (event: Event) => void) => {
      if (type === 'beforeinstallprompt') early = listener;
    });
    const event = promptEvent('accepted');
    early!(event);
    expect(event.defaultPrevented).toBe(true);
    try {
      const { InstallHint } = await loadHint();
      render(<InstallHint />);
      expect(hint()).not.toBeNull();
      await act(async () => {
        fireEvent.click(screen.getByRole('button', { name: '앱 설치' }));
      });
      expect(event.prompt).toHaveBeenCalledOnce();
    } finally {
      delete window.__installPrompt;
    }
  });

  it("on Chrome, keeps the install prompt and opens it from '앱 설치'; once installed, the hint is gone", async () => {
    const { InstallHint } = await loadHint();
    render(<InstallHint />);
    expect(hint()).toBeNull();

    const event = firePrompt('accepted');
    expect(event.defaultPrevented).toBe(true);
    expect(hint()).not.toBeNull();
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: '앱 설치' }));
    });
    expect(event.prompt).toHaveBeenCalledTimes(1);
    expect(hint()).toBeNull();
    expect(localStorage.getItem('campus-bus:install-hint-dismissed')).toBeNull();
  });

  it('keeps a prompt that came before the hint was mounted', async () => {
    const { InstallHint } = await loadHint();
    firePrompt();
    render(<InstallHint />);
    expect(screen.getByRole('button', { name: '앱 설치' })).toBeDefined();
  });

  it('hides for good when the person declines the install prompt', async () => {
    const { InstallHint } = await loadHint();
    render(<InstallHint />);
    firePrompt('dismissed');
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: '앱 설치' }));
    });
    expect(hint()).toBeNull();
    expect(localStorage.getItem('campus-bus:install-hint-dismissed')).toBe('1');
  });

  it('hides when the app gets installed from the browser menu', async () => {
    const { InstallHint } = await loadHint();
    render(<InstallHint />);
    firePrompt();
    act(() => {
      window.dispatchEvent(new Event('appinstalled'));
    });
    expect(hint()).toBeNull();
  });

  it('remembers a dismissal: the next visit shows no hint', async () => {
    const first = await loadHint();
    render(<first.InstallHint />);
    firePrompt();
    fireEvent.click(screen.getByRole('button', { name: '설치 안내 닫기' }));
    expect(hint()).toBeNull();
    cleanup();

    const next = await loadHint();
    render(<next.InstallHint />);
    firePrompt();
    expect(hint()).toBeNull();
  });

  it('still closes, for this page, when storage fails', async () => {
    vi.spyOn(Storage.prototype, 'getItem').mockImplementation(() => {
      throw new DOMException('denied', 'SecurityError');
    });
    vi.spyOn(Storage.prototype, 'setItem').mockImplementation(() => {
      throw new DOMException('full', 'QuotaExceededError');
    });
    const { InstallHint } = await loadHint();
    render(<InstallHint />);
    firePrompt();
    fireEvent.click(screen.getByRole('button', { name: '설치 안내 닫기' }));
    expect(hint()).toBeNull();
  });

  it('shows nothing when the app runs installed (standalone)', async () => {
    setBrowser({ standalone: true });
    const { InstallHint } = await loadHint();
    render(<InstallHint />);
    firePrompt();
    expect(hint()).toBeNull();
  });

  it('shows nothing in an iOS home screen app (navigator.standalone)', async () => {
    setBrowser({ userAgent: IPHONE_SAFARI, iosStandalone: true });
    const { InstallHint } = await loadHint();
    render(<InstallHint />);
    expect(hint()).toBeNull();
  });

  it.each([
    ['iPhone Safari', IPHONE_SAFARI, 5],
    ['iPadOS Safari (desktop user agent, touch screen)', DESKTOP_SAFARI, 5],
  ])("on %s, shows the steps: 공유 → '홈 화면에 추가'", async (_name, userAgent, maxTouchPoints) => {
    setBrowser({ userAgent, maxTouchPoints });
    const { InstallHint } = await loadHint();
    render(<InstallHint />);
    const steps = screen.getAllByRole('listitem').map((item) => item.textContent);
    expect(steps).toEqual(['Safari의 공유 버튼을 누르세요.', '‘홈 화면에 추가’를 누르세요.']);
    expect(screen.queryByRole('button', { name: '앱 설치' })).toBeNull();
  });

  it.each([
    ['Safari on a Mac (no touch screen)', DESKTOP_SAFARI, 0],
    ['Chrome on iPhone', IPHONE_CHROME, 5],
    ["KakaoTalk's in-app browser on iPhone", IPHONE_KAKAOTALK, 5],
    ['Chrome before its install prompt', CHROME_ANDROID, 5],
  ])('shows nothing on %s', async (_name, userAgent, maxTouchPoints) => {
    setBrowser({ userAgent, maxTouchPoints });
    const { InstallHint } = await loadHint();
    render(<InstallHint />);
    expect(hint()).toBeNull();
  });
});
