/**
 * The home screen's install hint (docs/product.md §2.3 Home screen): on Chrome (Android),
 * an "앱 설치" button that opens the browser's install prompt; on iOS Safari, the steps to add the
 * app to the home screen. Hidden when the app runs installed (display-mode standalone, iOS
 * `navigator.standalone`), once it is installed from Chrome (`appinstalled`), and once the person
 * closes it or declines the prompt (remembered in localStorage).
 *
 * Decided after mount only: nothing renders on the server or without JavaScript, so hydration always
 * matches. The home page places it last, after the shortcuts: a card in the page's flow that covers
 * no bus information and, coming after everything, moves nothing when it appears
 * (app/styles/notice-and-install.css "Install hint").
 */
import { useEffect, useId, useState, useSyncExternalStore } from 'react';
import { useT } from '~/i18n/i18n';
import installHint from '~/i18n/compiled/ko/install.js';
import common from '~/i18n/compiled/ko/common.js';
import { isIosSafari, isStandalone } from '~/utils/install';

/** Chrome's `beforeinstallprompt` event (not in TypeScript's DOM types). */
interface BeforeInstallPromptEvent extends Event {
  prompt(): Promise<unknown>;
  readonly userChoice: Promise<{ outcome: 'accepted' | 'dismissed'; platform: string }>;
}

/** localStorage key, '1' once the person closed the hint or declined the install prompt. */
const DISMISSED_KEY = 'campus-bus:install-hint-dismissed';

// NOTE: page state, not component state: the prompt may come before the hint mounts.
let deferredPrompt: BeforeInstallPromptEvent | null = null;
const subscribers = new Set<() => void>();

declare global {
  interface Window {
    /** The `beforeinstallprompt` event InstallPromptCapture kept before the scripts ran, if any. */
    __installPrompt?: Event;
  }
}

/**
 * Keeps Chrome's install prompt for the hint instead of its mini-infobar, and drops it on
 * `appinstalled` (installed from the browser's menu). Called once per page by entry.client before
 * hydrating, because Chrome may fire `beforeinstallprompt` before the hint is mounted; takes the one
 * InstallPromptCapture kept, as Chrome may fire it before this runs too (pages hydrate after their
 * first paint, ADR 026).
 */
export function captureInstallPrompt(): void {
  if (window.__installPrompt) setDeferredPrompt(window.__installPrompt as BeforeInstallPromptEvent);
  window.addEventListener('beforeinstallprompt', (event) => {
    event.preventDefault();
    setDeferredPrompt(event as BeforeInstallPromptEvent);
  });
  window.addEventListener('appinstalled', () => setDeferredPrompt(null));
}

/** What InstallPromptCapture runs as the document parses. */
export const EARLY_CAPTURE = `addEventListener("beforeinstallprompt", (event) => {
  event.preventDefault();
  window.__installPrompt = event;
});`;

/**
 * An inline script in the document's head that keeps Chrome's install prompt (EARLY_CAPTURE) from
 * the start, for captureInstallPrompt to take when the scripts run. Carries the render's marker, so
 * it is allowed by its hash (ADR 023).
 */
export function InstallPromptCapture({ marker }: { marker: string }) {
  return <script nonce={marker} dangerouslySetInnerHTML={{ __html: EARLY_CAPTURE }} />;
}

export function InstallHint() {
  const t = useT(installHint);
  const siteName = useT(common)('site.name');
  const prompt = useSyncExternalStore(subscribe, readDeferredPrompt, readDeferredPrompt);
  const titleId = useId();
  // null until mounted: the server and a page without JavaScript show nothing.
  const [browser, setBrowser] = useState<{ hidden: boolean; iosSafari: boolean } | null>(null);
  const [closed, setClosed] = useState(false);
  useEffect(() => {
    setBrowser({
      hidden: isStandalone() || readDismissed(),
      iosSafari: isIosSafari(navigator.userAgent, navigator.maxTouchPoints),
    });
  }, []);

  if (!browser || browser.hidden || closed || (!prompt && !browser.iosSafari)) return null;

  const dismiss = () => {
    try {
      localStorage.setItem(DISMISSED_KEY, '1');
    } catch {
      // private mode or full storage: hidden for this page only
    }
    setClosed(true);
  };
  const install = async (event: BeforeInstallPromptEvent) => {
    setDeferredPrompt(null); // an event prompts once
    try {
      await event.prompt();
      if ((await event.userChoice).outcome === 'dismissed') dismiss();
    } catch (error) {
      console.error('[install-hint] install prompt failed:', error);
    }
  };

  return (
    <section className="install-hint" aria-labelledby={titleId}>
      <div className="install-hint__body">
        <h2 id={titleId} className="install-hint__title">
          {t('install.title', { name: siteName })}
        </h2>
        {prompt ? (
          <>
            <p>{t('install.prompt')}</p>
            <button type="button" className="button install-hint__install" onClick={() => install(prompt)}>
              {t('install.button')}
            </button>
          </>
        ) : (
          <>
            <p>{t('install.ios')}</p>
            <IosInstallSteps />
          </>
        )}
      </div>
      <button type="button" className="install-hint__close" aria-label={t('install.close')} onClick={dismiss}>
        <span aria-hidden="true">×</span>
      </button>
    </section>
  );
}

function setDeferredPrompt(event: BeforeInstallPromptEvent | null): void {
  deferredPrompt = event;
  for (const notify of subscribers) notify();
}

function subscribe(notify: () => void): () => void {
  subscribers.add(notify);
  return () => subscribers.delete(notify);
}

function readDeferredPrompt(): BeforeInstallPromptEvent | null {
  return deferredPrompt;
}

function readDismissed(): boolean {
  try {
    return localStorage.getItem(DISMISSED_KEY) === '1';
  } catch {
    return false; // storage unavailable: offer the hint
  }
}

/** Safari's two steps to add the app to the Home Screen (Share, then Add to Home Screen). */
export function IosInstallSteps() {
  const t = useT(installHint);
  return (
    <ol className="install-hint__steps">
      <li>
        {t('install.step1Before')}
        <strong>{t('install.step1Share')}</strong>
        {t('install.step1After')}
      </li>
      <li>
        {t('install.step2Before')}
        <strong>{t('install.step2Add')}</strong>
        {t('install.step2After')}
      </li>
    </ol>
  );
}
