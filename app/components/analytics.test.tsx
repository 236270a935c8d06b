import type { AppLoadContext } from '@remix-run/node';
import { renderToStaticMarkup } from 'react-dom/server';
import { Analytics } from '~/components/analytics';
import { ScriptMarkerProvider } from '~/components/script-marker-provider';
import { loader, shouldRevalidate } from '~/root';
import { parseWebEnv, publicConfigOf } from '~/server/env.server';
import { apiContext } from '../../tests/mocks/api';

const render = (measurementId: string | null) =>
  renderToStaticMarkup(
    <ScriptMarkerProvider value="r4nd0m">
      <Analytics measurementId={measurementId} />
    </ScriptMarkerProvider>,
  );

describe('Analytics (GA4 only when configured)', () => {
  it('renders nothing without an analytics id: nothing is loaded', () => {
    expect(render(null)).toBe('');
  });

  it('loads gtag.js and configures the id, both scripts with the render’s marker (its hash allows the inline one)', () => {
    const html = render('G-ABC123XYZ9');
    expect(html).toContain(
      '<script async="" src="https://www.googletagmanager.com/gtag/js?id=G-ABC123XYZ9" nonce="r4nd0m"></script>',
    );
    expect(html).toContain('<script nonce="r4nd0m">window.dataLayer = window.dataLayer || [];');
    expect(html).toContain(`gtag('config', "G-ABC123XYZ9");</script>`);
  });
});

describe('root loader', () => {
  const rootData = async (vars: Record<string, string>) => {
    const context: AppLoadContext = {
      ...apiContext(),
      api: { baseUrl: 'http://api.test', fetch: () => Promise.reject(new Error('no api call expected')) },
      publicConfig: publicConfigOf(parseWebEnv(vars)),
    };
    return (await loader({ request: new Request('http://web.test/'), context, params: {} })).json();
  };

  it('hands the layout the analytics id of PublicConfig, null when unset (and the page’s language)', async () => {
    expect(await rootData({ ANALYTICS_ID: 'G-ABC123XYZ9' })).toEqual({ analyticsId: 'G-ABC123XYZ9', locale: 'ko' });
    expect(await rootData({})).toEqual({ analyticsId: null, locale: 'ko' });
  });

  it('is never called again on client navigations: the configuration is fixed for the process', () => {
    expect(shouldRevalidate({} as Parameters<typeof shouldRevalidate>[0])).toBe(false);
  });
});
