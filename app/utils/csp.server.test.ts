import { cspSources } from '~/utils/csp.server';
import { parseWebEnv, publicConfigOf } from '~/utils/env.server';

const sourcesOf = (vars: Record<string, string>) => {
  const env = parseWebEnv(vars);
  return cspSources(env, publicConfigOf(env));
};

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

  it('allows Google Analytics hosts only when ANALYTICS_ID is set', () => {
    expect(JSON.stringify(sourcesOf({}))).not.toContain('google');
    const analytics = sourcesOf({ ANALYTICS_ID: 'G-ABC123XYZ9' });
    const collect = [
      'https://*.google-analytics.com',
      'https://*.analytics.google.com',
      'https://*.googletagmanager.com',
      'https://*.g.doubleclick.net',
      'https://*.google.com',
    ];
    expect(analytics).toEqual({
      script: ['https://www.googletagmanager.com'],
      img: collect,
      frame: [],
      connect: collect,
    });
  });

  it('refuses malformed or half-configured slots and bank accounts at start-up, naming the variable', () => {
    expect(() => parseWebEnv({ KAKAO_ADFIT_UNIT: 'abc' })).toThrow(/KAKAO_ADFIT_UNIT/);
    expect(() => parseWebEnv({ ADSENSE_CLIENT: 'ca-pub-1' })).toThrow(/ADSENSE_CLIENT/);
    expect(() => parseWebEnv({ AD_BANK_NAME: '은행' })).toThrow(/AD_BANK_NAME/);
    expect(publicConfigOf(parseWebEnv({})).bankAccount).toBeNull();
  });
});
