import { createHash } from 'node:crypto';
import { cspSources, ownScripts } from '~/server/csp.server';
import { parseWebEnv, publicConfigOf } from '~/server/env.server';

const sourcesOf = (vars: Record<string, string>) => {
  const env = parseWebEnv(vars);
  return cspSources(env, publicConfigOf(env));
};

/** Whether a CSP source list allows `url` (https host sources only, with a leading `*.` wildcard, as CSP3 matches them). */
function allows(sources: string[], url: string): boolean {
  const { protocol, host } = new URL(url);
  return sources.some((source) => {
    const { protocol: sourceProtocol, host: sourceHost } = new URL(source.replace('://*.', '://wildcard.'));
    if (sourceProtocol !== protocol) return false;
    return source.includes('://*.') ? host.endsWith(sourceHost.slice('wildcard'.length)) : host === sourceHost;
  });
}

describe('cspSources', () => {
  it('adds no origin at all when nothing is configured: no third party', () => {
    expect(sourcesOf({})).toEqual({ script: [], img: [], frame: [], connect: [] });
  });

  it('allows the S3 public base URL for images only', () => {
    expect(sourcesOf({ S3_PUBLIC_BASE_URL: 'https://cdn.example.com/ads/' })).toEqual({
      script: [],
      img: ['https://cdn.example.com'],
      frame: [],
      connect: [],
    });
  });

  it('allows each ad slot’s hosts only when that slot is configured', () => {
    const adfit = sourcesOf({ KAKAO_ADFIT_UNIT: 'DAN-abc123' });
    expect(adfit.script).toEqual(['https://t1.daumcdn.net']);
    expect(JSON.stringify(adfit)).not.toContain('google');
    const adsense = sourcesOf({ ADSENSE_CLIENT: 'ca-pub-1234567890', ADSENSE_SLOT: '42' });
    expect(adsense.script).toContain('https://pagead2.googlesyndication.com');
    expect(adsense.script.filter((source) => source.includes('google.com'))).toEqual([]); // JSONP hosts
    expect(JSON.stringify(adsense)).not.toContain('daum');
  });

  it('lets gtag.js load and send its hits only when ANALYTICS_ID is set, and runs no other Google script', () => {
    const analytics = sourcesOf({ ANALYTICS_ID: 'G-ABC123XYZ9' });
    // What gtag.js does in a browser: it is loaded from the tag manager, then sends its hits as
    // beacons or fetches (connect) and, for the ads features, as pixels (img), to regional hosts.
    expect(allows(analytics.script, 'https://www.googletagmanager.com/gtag/js?id=G-ABC123XYZ9')).toBe(true);
    for (const hit of [
      'https://region1.google-analytics.com/g/collect?v=2',
      'https://www.google-analytics.com/g/collect?v=2',
      'https://region1.analytics.google.com/g/collect?v=2',
      'https://stats.g.doubleclick.net/g/collect?v=2',
    ]) {
      expect(allows(analytics.connect, hit), hit).toBe(true);
      expect(allows(analytics.img, hit), hit).toBe(true);
    }
    expect(allows(analytics.script, 'https://www.google.com/jsapi')).toBe(false); // JSONP hosts run no script
    expect(allows(analytics.script, 'https://evil.example/gtag/js')).toBe(false);
    expect(analytics.frame).toEqual([]);
    const none = sourcesOf({});
    expect(allows(none.script, 'https://www.googletagmanager.com/gtag/js?id=G-ABC123XYZ9')).toBe(false);
    expect(allows(none.connect, 'https://region1.google-analytics.com/g/collect?v=2')).toBe(false);
  });

  it('refuses malformed or half-configured slots and bank accounts at start-up, naming the variable', () => {
    expect(() => parseWebEnv({ KAKAO_ADFIT_UNIT: 'abc' })).toThrow(/KAKAO_ADFIT_UNIT/);
    expect(() => parseWebEnv({ ADSENSE_CLIENT: 'ca-pub-1' })).toThrow(/ADSENSE_CLIENT/);
    expect(() => parseWebEnv({ AD_BANK_NAME: '은행' })).toThrow(/AD_BANK_NAME/);
    expect(publicConfigOf(parseWebEnv({})).bankAccount).toBeNull();
  });
});

describe('ownScripts', () => {
  const sha256 = (text: string) => `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;
  const MARK = 'r4nd0m-M4rk';

  it('hashes the text of each inline script the render marked, once, and takes the marker out', () => {
    const html =
      `<head><script async="" src="https://www.googletagmanager.com/gtag/js?id=G-1" nonce="${MARK}"></script>` +
      `<script nonce="${MARK}">window.__remixContext = {"버스":"1150번"};</script></head>` +
      `<body><script nonce="${MARK}" type="module" async="">import "/build/entry.client.js";</script>` +
      `<script nonce="${MARK}">window.__remixContext = {"버스":"1150번"};</script><script nonce="${MARK}"></script></body>`;
    const own = ownScripts(html, MARK);
    expect(own.hashes).toEqual([
      sha256('window.__remixContext = {"버스":"1150번"};'),
      sha256('import "/build/entry.client.js";'),
      sha256(''),
    ]);
    expect(own.html).not.toContain(MARK);
    expect(own.html).toBe(html.replaceAll(` nonce="${MARK}"`, ''));
  });

  it('gives no hash to a script the render did not mark: one that got into the page otherwise cannot run', () => {
    const html =
      `<script nonce="${MARK}">go()</script><p>광고</p><script>window.__xss=1</script>` +
      `<script nonce="guessed">window.__xss=2</script>`;
    const own = ownScripts(html, MARK);
    expect(own.hashes).toEqual([sha256('go()')]);
    expect(own.html).toBe(
      `<script>go()</script><p>광고</p><script>window.__xss=1</script><script nonce="guessed">window.__xss=2</script>`,
    );
  });

  it('keeps what a script holds across lines and up to its own closing tag', () => {
    const text = 'const a = "<\\/script>";\nconsole.log(a);';
    expect(ownScripts(`<script nonce="${MARK}">${text}</script><p>after</p>`, MARK).hashes).toEqual([sha256(text)]);
  });
});
