import { parseWebEnv, publicConfigOf } from '~/server/env.server';

const configOf = (vars: Record<string, string>) => publicConfigOf(parseWebEnv(vars));

describe('the privacy officer (docs/product.md §2, §9 privacy policy)', () => {
  it('reaches the pages as PublicConfig.privacyOfficer, trimmed, when both variables are set', () => {
    expect(
      configOf({ PRIVACY_OFFICER_NAME: ' 김외대 ', PRIVACY_OFFICER_EMAIL: 'privacy@campus-bus.example' }),
    ).toMatchObject({ privacyOfficer: { name: '김외대', email: 'privacy@campus-bus.example' } });
  });

  it('is null when unset or blank: the page points to /contact', () => {
    expect(configOf({}).privacyOfficer).toBeNull();
    expect(configOf({ PRIVACY_OFFICER_NAME: ' ', PRIVACY_OFFICER_EMAIL: '' }).privacyOfficer).toBeNull();
  });

  it('refuses a bad e-mail or one variable without the other at start-up, naming the variable', () => {
    expect(() => parseWebEnv({ PRIVACY_OFFICER_NAME: '김외대', PRIVACY_OFFICER_EMAIL: 'privacy at example' })).toThrow(
      /PRIVACY_OFFICER_EMAIL: expected an e-mail address/,
    );
    expect(() => parseWebEnv({ PRIVACY_OFFICER_EMAIL: 'privacy@campus-bus.example' })).toThrow(
      /PRIVACY_OFFICER_NAME: set PRIVACY_OFFICER_NAME and PRIVACY_OFFICER_EMAIL together/,
    );
    expect(() => parseWebEnv({ PRIVACY_OFFICER_NAME: '김외대' })).toThrow(/PRIVACY_OFFICER_NAME/);
  });
});

describe('ANALYTICS_ID (optional Google Analytics 4)', () => {
  it('reaches the pages as PublicConfig.analyticsId when set, null otherwise', () => {
    expect(configOf({ ANALYTICS_ID: 'G-ABC123XYZ9' }).analyticsId).toBe('G-ABC123XYZ9');
    expect(configOf({}).analyticsId).toBeNull();
    expect(configOf({ ANALYTICS_ID: '' }).analyticsId).toBeNull();
  });

  it('accepts only a GA4 measurement id', () => {
    for (const bad of ['UA-12345-1', 'G-', 'g-abc123', 'G-ABC 123', 'GTM-ABC123']) {
      expect(() => parseWebEnv({ ANALYTICS_ID: bad }), bad).toThrow(/ANALYTICS_ID: expected something like G-/);
    }
  });
});

describe('NODE_ENV (production unless asked)', () => {
  it('is production unless development is asked for explicitly, so error details never reach a response by default', () => {
    expect(parseWebEnv({}).NODE_ENV).toBe('production');
    expect(parseWebEnv({ NODE_ENV: '' }).NODE_ENV).toBe('production');
    expect(parseWebEnv({ NODE_ENV: 'test' }).NODE_ENV).toBe('production');
    expect(parseWebEnv({ NODE_ENV: 'development' }).NODE_ENV).toBe('development');
  });

  it('turns the Secure cookie on by default, off in development or with COOKIE_SECURE=false', () => {
    expect(parseWebEnv({}).secureCookie).toBe(true);
    expect(parseWebEnv({ NODE_ENV: 'development' }).secureCookie).toBe(false);
    expect(parseWebEnv({ COOKIE_SECURE: 'false' }).secureCookie).toBe(false);
  });
});
