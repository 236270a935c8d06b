/** What the browser says of installing the app (docs/decisions/009-installable-app.md): read in the browser only. */

/** Opened from the home screen: the manifest's standalone display, or iOS's own flag. */
export function isStandalone(): boolean {
  return (
    window.matchMedia('(display-mode: standalone)').matches ||
    (navigator as Navigator & { standalone?: boolean }).standalone === true
  );
}

/**
 * Safari on iPhone, iPod or iPad; iPadOS's Safari says "Macintosh" but has a touch screen. Not the
 * other iOS browsers (CriOS, FxiOS, EdgiOS), whose menus differ, nor in-app browsers such as
 * KakaoTalk's, which cannot add to the home screen and have no "Safari/" token.
 */
export function isIosSafari(userAgent: string, maxTouchPoints: number): boolean {
  const appleMobile = /iPhone|iPad|iPod/.test(userAgent) || (/Macintosh/.test(userAgent) && maxTouchPoints > 1);
  return appleMobile && /Safari\//.test(userAgent) && !/CriOS|FxiOS|EdgiOS/.test(userAgent);
}
