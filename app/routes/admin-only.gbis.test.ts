/**
 * /admin-only/gbis against the real api in-process (demo feed): the page needs an admin session,
 * says GBIS is not in use and what to set, and a discovery asked for anyway is refused with the
 * api's reason, nothing spent.
 */
import GbisPage, { action, loader } from '~/routes/admin-only.gbis';
import { action as loginAction } from '~/routes/admin-only_.login';
import { startSignedInAdmin, WEB_ORIGIN, type SignedInAdmin } from '../../tests/setup/admin-web';
import { renderRoute } from '../../tests/setup/render-route';

const TOKEN = 'test-service-token-for-admin-gbis';
const PAGE = '/admin-only/gbis';

let admin: SignedInAdmin;

beforeAll(async () => {
  admin = await startSignedInAdmin(TOKEN, loginAction);
});
afterAll(() => admin.api.close());

describe('/admin-only/gbis', () => {
  it('sends a visitor without a session to the login page', async () => {
    const refused = await loader({
      request: new Request(`${WEB_ORIGIN}${PAGE}`),
      context: admin.context,
      params: {},
    }).catch((thrown: unknown) => thrown);
    expect((refused as Response).status).toBe(302);
  });

  it('says GBIS is not in use with the demo feed, and what to set', async () => {
    const request = new Request(`${WEB_ORIGIN}${PAGE}`, { headers: { Cookie: admin.cookie } });
    const data = await (await loader({ request, context: admin.context, params: {} })).json();
    expect(data.setup).toMatchObject({ feed: 'demo', idsKnown: false, stored: null });
    const document = await renderRoute(GbisPage, { path: PAGE, url: PAGE, loaderData: data });
    expect([...document.querySelectorAll('h1')].map((h) => h.textContent)).toEqual(['버스 정보 설정']);
    expect(document.body.textContent).toContain('BUS_FEED=gbis');
    expect(document.body.textContent).toContain('GBIS_SERVICE_KEY'); // sent by the loader, not bundled
    expect(document.querySelector('form')).toBeNull();
  });

  it('answers a discovery with the api’s refusal', async () => {
    const body = new URLSearchParams({ intent: 'discover' });
    const request = new Request(`${WEB_ORIGIN}${PAGE}`, {
      method: 'POST',
      body,
      headers: { Cookie: admin.cookie, Origin: WEB_ORIGIN },
    });
    const response = await action({ request, context: admin.context, params: {} });
    expect(response.status).toBe(409);
    expect(await response.json()).toMatchObject({
      intent: 'discover',
      refused: expect.stringContaining('BUS_FEED=demo'),
    });
  });
});
