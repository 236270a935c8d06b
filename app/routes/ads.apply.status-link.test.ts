/**
 * The status link after a taken application: carried by the redirect's signed cookie, shown once by
 * the loader, and the page that shows it.
 */
import type { AppLoadContext } from '@remix-run/node';
import AdApply, { action, headers, loader } from '~/routes/ads.apply';
import { getAdStatus } from '~/models/ads.server';
import { AD_MESSAGES } from '../../contract/ads';
import { renderRoute } from '../../tests/setup/render-route';
import { adsApplyActionFor, form, WEB_FIELDS } from '../../tests/setup/ads-apply-action';

const { freshContext } = adsApplyActionFor();

describe('the status link after a taken application', () => {
  /** The signing secret and cookie flags server.ts passes. */
  const admin = { serviceToken: 'unused', sessionSecret: 'status-link-test-secret', secureCookie: true };
  const PAGE = 'https://bus.example.kr/ads/apply?submitted=1';

  /** Applies, then loads the page the redirect names with the cookie the browser would send back. */
  async function applyAndLoad(context: AppLoadContext) {
    const response = await action({
      request: new Request('https://bus.example.kr/ads/apply', { method: 'POST', body: form(WEB_FIELDS) }),
      context,
      params: {},
    });
    const setCookie = response.headers.get('Set-Cookie') ?? '';
    const load = (cookie: string) =>
      loader({ request: new Request(PAGE, { headers: { Cookie: cookie } }), context, params: {} });
    return { response, setCookie, load, cookie: setCookie.split(';')[0] };
  }

  it('rides the redirect in a signed, HttpOnly, Lax, 10-minute cookie, never in the URL', async () => {
    const { response, setCookie } = await applyAndLoad(freshContext({ admin }));
    expect(response.status).toBe(303);
    expect(response.headers.get('Location')).toBe('/ads/apply?submitted=1');
    const attributes = setCookie.split('; ').slice(1);
    expect(attributes).toEqual(
      expect.arrayContaining(['Max-Age=600', 'Path=/ads', 'HttpOnly', 'Secure', 'SameSite=Lax']),
    );
    // Signed, not secret (the page shows the link anyway): Remix's base64 JSON, then its signature.
    const [, value, signature] = /^__campus_ad_status_link=([^;.]+)\.([^;]+);/.exec(setCookie) ?? [];
    expect(signature).toBeTruthy();
    const carried = JSON.parse(Buffer.from(decodeURIComponent(value), 'base64').toString('utf8'));
    expect(carried).toEqual({ statusToken: expect.stringMatching(/^[\w-]{43}$/), emailed: false });
    expect(setCookie).not.toContain(carried.statusToken); // never in the clear, as in a URL
  });

  it('is shown once by the loader: an absolute link on the page’s origin that opens the application’s status, then cleared', async () => {
    const context = freshContext({ admin });
    const { load, cookie } = await applyAndLoad(context);
    const first = await load(cookie);
    const { statusLink } = (await first.json()) as { statusLink: { url: string; emailed: boolean } };
    expect(statusLink).toEqual({
      url: expect.stringMatching(/^https:\/\/bus\.example\.kr\/ads\/status\/[\w-]{43}$/),
      emailed: false,
    });
    expect(first.headers.get('Cache-Control')).toBe('no-store');
    expect(first.headers.get('Set-Cookie')).toMatch(
      /^__campus_ad_status_link=; Max-Age=0; Path=\/ads; HttpOnly; Secure; SameSite=Lax/,
    );
    expect(headers({ loaderHeaders: first.headers } as Parameters<typeof headers>[0])).toBe(first.headers);

    const token = statusLink.url.split('/').at(-1)!;
    expect(await getAdStatus(context, token)).toMatchObject({ title: '캠퍼스 카페', status: 'pending' });

    // The browser dropped the cookie: the next load shows nothing.
    const again = await load('');
    expect(await again.json()).toMatchObject({ statusLink: null });
    expect(again.headers.get('Set-Cookie')).toBeNull();
  });

  it('shows nothing for a cookie signed with another secret, or tampered with', async () => {
    const { load, cookie } = await applyAndLoad(freshContext({ admin }));
    const other = freshContext({ admin: { ...admin, sessionSecret: 'another-secret' } });
    const otherLoad = await loader({
      request: new Request(PAGE, { headers: { Cookie: cookie } }),
      context: other,
      params: {},
    });
    expect(await otherLoad.json()).toMatchObject({ statusLink: null });
    const [name, value] = cookie.split('=');
    const tampered = `${name}=${value.replace(/^./, (c) => (c === 'e' ? 'f' : 'e'))}`;
    expect(await (await load(tampered)).json()).toMatchObject({ statusLink: null });
  });

  describe('the page', () => {
    const render = (statusLink: { url: string; emailed: boolean } | null) =>
      renderRoute(AdApply, {
        path: '/ads/apply',
        url: '/ads/apply?submitted=1',
        loaderData: { bankAccount: null, statusLink },
      });
    const URL = 'https://bus.example.kr/ads/status/abc';

    it('shows the received message, the link with a copy hint, and promises no e-mail when none was sent', async () => {
      const document = await render({ url: URL, emailed: false });
      const text = document.body.textContent ?? '';
      expect(document.querySelector('[role="status"]')?.textContent).toBe(
        `${AD_MESSAGES.submitted} 입금을 확인한 뒤 검토합니다.`,
      );
      const notice = document.querySelector('section[aria-labelledby="status-link-title"]');
      expect(notice?.querySelector('a')?.getAttribute('href')).toBe(URL);
      expect(notice?.querySelector('a')?.textContent).toBe(URL);
      expect(notice?.textContent).toContain('검토 결과는 아래 링크에서 확인할 수 있습니다.');
      expect(notice?.textContent).toContain('복사');
      expect(text).not.toContain('이메일로도');
      expect(text).not.toContain('이메일로 연락');
      expect(text).not.toContain('검토 결과를 이 주소로');
    });

    it('says the link was e-mailed too only when it was', async () => {
      const document = await render({ url: URL, emailed: true });
      expect(document.body.textContent).toContain('같은 링크를 입력하신 이메일로도 보내드렸습니다.');
    });

    it('tells the one payment order (apply, pay, approval after the deposit), with the account or that the reviewer e-mails it', async () => {
      const box = async (bankAccount: { bank: string; number: string; holder: string } | null) => {
        const document = await renderRoute(AdApply, {
          path: '/ads/apply',
          url: '/ads/apply',
          loaderData: { bankAccount, statusLink: null },
        });
        expect(document.body.textContent).not.toMatch(/먼저 입금|신청 전에/);
        return [...document.querySelectorAll('section[aria-labelledby="price-title"] p')].map((p) => p.textContent);
      };
      const order =
        '광고비는 한 달(30일)에 26,000원입니다. 신청서를 보낸 뒤 광고비를 계좌 이체로 입금해주세요. ' +
        '입금을 확인하면 광고를 승인하고, 승인한 날부터 게재 기간이 시작됩니다.';
      expect(await box(null)).toEqual([
        order,
        '입금 계좌는 신청을 받은 뒤 담당자가 입력하신 이메일로 알려드립니다.',
        '입금자명은 신청자 이름과 같게 해주세요. 신청한 날부터 30일 안에 입금이 확인되지 않은 신청은 이미지와 함께 삭제됩니다.',
      ]);
      expect(await box({ bank: '국민은행', number: '123-456-789', holder: '외대버스' })).toEqual([
        order,
        '입금 계좌: 국민은행 123-456-789 (예금주 외대버스)',
        '입금자명은 신청자 이름과 같게 해주세요. 신청한 날부터 30일 안에 입금이 확인되지 않은 신청은 이미지와 함께 삭제됩니다.',
      ]);
    });

    it('says nothing of a submission without the link: a reload, or the address opened by anyone else', async () => {
      const document = await render(null);
      expect(document.querySelector('[role="status"]')?.textContent).toBe('');
      expect(document.body.textContent).not.toContain(AD_MESSAGES.submitted);
      expect(document.querySelector('section[aria-labelledby="status-link-title"]')).toBeNull();
    });
  });
});
