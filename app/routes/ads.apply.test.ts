/**
 * /ads/apply's loader and action against the real api in-process (PGlite, local store): the docs/product.md §7
 * hand-off (presign, PUT, submit) really runs, and what the api stored is read back.
 */
import type { SubmissionResult } from '@conform-to/react';
import type { AppLoadContext } from '@remix-run/node';
import AdApply, { action, headers, loader } from '~/routes/ads.apply';
import { getAdStatus } from '~/models/ads.server';
import { AD_FORMAT_MESSAGES, AD_MESSAGES, IMAGE_MAX_BYTES } from '../../contract/ads';
import { TEXT_MESSAGES } from '../../contract/strings';
import { GIF, JPEG, SVG, WEBP } from '../../tests/fixtures/images';
import { renderRoute } from '../../tests/setup/render-route';
import { TINY_PNG, startWebApi, webApiFor } from '../../tests/setup/web-api';

type ActionData = { result: SubmissionResult<string[]> };

const api = webApiFor();
let ipCounter = 0;
/** A load context on the real api with its own client IP, so rate limits never leak between tests. */
const freshContext = (overrides: Partial<AppLoadContext> = {}) =>
  api().context({ clientIp: `192.0.2.${++ipCounter}`, ...overrides });

beforeEach(() => {
  vi.spyOn(console, 'error').mockImplementation(() => {});
});
afterEach(() => vi.restoreAllMocks());

const WEB_FIELDS = {
  type: 'web',
  title: '캠퍼스 카페',
  applicantName: '홍길동',
  applicantPhone: '010-1234-5678',
  email: 'owner@example.com',
  redirectUrl: 'https://cafe.example.com/menu',
  contentForManager: '입금자명: 홍길동',
  duration: '2',
};

function form(
  fields: Record<string, string>,
  image: File | null = new File([TINY_PNG], 'ad.png', { type: 'image/png' }),
) {
  const data = new FormData();
  for (const [name, value] of Object.entries(fields)) data.append(name, value);
  if (image) data.append('image', image);
  return data;
}

async function submit(body: FormData | Request, context: AppLoadContext = freshContext()) {
  const request = body instanceof Request ? body : new Request('http://localhost/ads/apply', { method: 'POST', body });
  const response = await action({ request, context, params: {} });
  // A taken application redirects (post/redirect/get) to the page with the success message.
  const submitted = response.status === 303 && response.headers.get('Location') === '/ads/apply?submitted=1';
  return {
    status: response.status,
    submitted,
    data: (submitted ? { result: {} } : await response.json()) as ActionData,
  };
}

/** Runs `run` and returns the ad requests it added. */
async function added(run: () => Promise<unknown>) {
  const before = (await api().adRequests()).length;
  await run();
  return (await api().adRequests()).slice(before);
}

describe('loader', () => {
  it('answers no bank account until one is configured', async () => {
    const response = await loader({
      request: new Request('http://localhost/ads/apply'),
      context: freshContext(),
      params: {},
    });
    expect(await response.json()).toEqual({ bankAccount: null, statusLink: null });
  });

  it('answers the configured bank account', async () => {
    const bankAccount = { bank: '국민은행', number: '123-456-789', holder: '외대버스' };
    const context = freshContext({
      publicConfig: {
        bankAccount,
        adSlots: { adfitUnit: null, adsense: null },
        privacyOfficer: null,
        analyticsId: null,
      },
    });
    const response = await loader({ request: new Request('http://localhost/ads/apply'), context, params: {} });
    expect(await response.json()).toEqual({ bankAccount, statusLink: null });
  });
});

describe('action', () => {
  it('takes a valid web application: stored pending and unconfirmed, phone digits only, then redirects (a reload sends nothing again)', async () => {
    let answer: Awaited<ReturnType<typeof submit>> | undefined;
    const rows = await added(async () => {
      answer = await submit(form(WEB_FIELDS));
    });
    expect(answer?.status).toBe(303);
    expect(answer?.submitted).toBe(true);

    expect(rows).toHaveLength(1);
    const [row] = rows;
    expect(row).toMatchObject({
      type: 'web',
      title: '캠퍼스 카페',
      applicantName: '홍길동',
      applicantPhone: '01012345678',
      applicantEmail: 'owner@example.com',
      redirectUrl: 'https://cafe.example.com/menu',
      contentForManager: '입금자명: 홍길동',
      content: null,
      duration: 2,
      confirmed: false,
      status: 'pending',
    });
    expect(row.imageUrl).toMatch(/^\/images\/web-[0-9a-f-]{36}\.png$/);
    expect(await api().imageUpload(row.imageUrl)).toMatchObject({ status: 'stored', adType: 'web' });
    // The stored image is served by the api, byte for byte.
    const served = await api().app.request(`http://api.internal/api${row.imageUrl}`);
    expect(served.status).toBe(200);
    expect(new Uint8Array(await served.arrayBuffer())).toEqual(TINY_PNG);
  });

  it('stores a kakao application with its message (trimmed)', async () => {
    let answer: Awaited<ReturnType<typeof submit>> | undefined;
    const rows = await added(async () => {
      answer = await submit(form({ ...WEB_FIELDS, type: 'kakao', content: '  점심 10% 할인  ' }));
    });
    expect(answer?.submitted).toBe(true);
    expect(rows).toMatchObject([{ type: 'kakao', content: '점심 10% 할인', status: 'pending' }]);
    expect(rows[0].imageUrl).toMatch(/^\/images\/kakao-/);
  });

  it.each(['가게;로고.png', 'logo=v2.png', 'menu "final".png', 'a\\b.png', '메뉴 (1).png'])(
    'takes an image whatever its file name: %s',
    async (name) => {
      let answer: Awaited<ReturnType<typeof submit>> | undefined;
      const rows = await added(async () => {
        answer = await submit(form(WEB_FIELDS, new File([TINY_PNG], name, { type: 'image/png' })));
      });
      expect(answer?.submitted).toBe(true);
      expect(rows).toHaveLength(1);
    },
  );

  it.each([
    ['jpg', JPEG],
    ['gif', GIF],
  ] as const)('takes a %s image, stored under its sniffed type whatever the file says', async (extension, bytes) => {
    const rows = await added(() =>
      submit(form(WEB_FIELDS, new File([new Uint8Array(bytes)], 'ad.png', { type: 'image/png' }))),
    );
    expect(rows).toHaveLength(1);
    expect(rows[0].imageUrl).toMatch(new RegExp(`^/images/web-[0-9a-f-]{36}\\.${extension}$`));
    expect(await api().imageUpload(rows[0].imageUrl)).toMatchObject({ status: 'stored', byteSize: bytes.byteLength });
  });

  it.each([
    ['WebP', WEBP],
    ['SVG', SVG],
  ])('refuses a %s image with the image type message and no api call', async (_, bytes) => {
    const calls = api().calls.length;
    const { status, data } = await submit(form(WEB_FIELDS, new File([new Uint8Array(bytes)], 'ad.png')));
    expect(status).toBe(400);
    expect(data.result.error).toEqual({ image: [AD_FORMAT_MESSAGES.imageType] });
    expect(api().calls.length).toBe(calls);
  });

  it("refuses a NUL (PostgreSQL text cannot hold one) with 400 and each field's message, echoing the rest without it", async () => {
    let answer: Awaited<ReturnType<typeof submit>> | undefined;
    const rows = await added(async () => {
      answer = await submit(form({ ...WEB_FIELDS, title: 'Cafe\u0000 Bar', contentForManager: '\u0000메모' }));
    });
    expect(rows).toEqual([]);
    expect(answer?.status).toBe(400);
    expect(answer?.data.result.error).toEqual({
      title: [TEXT_MESSAGES.oneLine('제목')],
      contentForManager: [TEXT_MESSAGES.invalidCharacter],
    });
    expect(answer?.data.result.initialValue).toMatchObject({
      title: 'Cafe Bar',
      contentForManager: '메모',
      applicantName: WEB_FIELDS.applicantName,
      email: WEB_FIELDS.email,
    });
    expect(JSON.stringify(answer?.data)).not.toContain('\\u0000');
  });

  it('refuses a line break in the title or the name (a forged line in the receipt e-mail) with 400 and their messages', async () => {
    let answer: Awaited<ReturnType<typeof submit>> | undefined;
    const forged = '카페\r\n입금 계좌: 사기은행 999-99-9999';
    const rows = await added(async () => {
      answer = await submit(form({ ...WEB_FIELDS, title: forged, applicantName: '홍\u2028길동' }));
    });
    expect(rows).toEqual([]);
    expect(answer?.status).toBe(400);
    expect(answer?.data.result.error).toEqual({
      title: ['제목에는 줄바꿈이나 제어 문자를 쓸 수 없습니다.'],
      applicantName: ['이름에는 줄바꿈이나 제어 문자를 쓸 수 없습니다.'],
    });
  });

  it('never sends or stores a web application’s stray content', async () => {
    const calls = api().calls.length;
    const rows = await added(() => submit(form({ ...WEB_FIELDS, content: '웹에는 없는 메시지' })));
    expect(rows).toMatchObject([{ type: 'web', content: null }]);
    const submitted = api()
      .calls.slice(calls)
      .find((call) => call.url.endsWith('/api/ads/web/submit'));
    expect(await submitted?.json()).not.toHaveProperty('content');
  });

  it.each([
    ['without content', {}],
    ['with blank content', { content: ' \n\t ' }],
  ])('refuses a kakao application %s: 400, the spec message, nothing stored', async (_, extra) => {
    let answer: Awaited<ReturnType<typeof submit>> | undefined;
    const rows = await added(async () => {
      answer = await submit(form({ ...WEB_FIELDS, type: 'kakao', ...extra }));
    });
    expect(answer?.status).toBe(400);
    expect(answer?.submitted).toBe(false);
    expect(answer?.data.result.error).toEqual({ content: [AD_MESSAGES.content] });
    expect(rows).toEqual([]);
  });

  it('answers an empty form with every docs/product.md §5 message, keeps nothing it should not, stores nothing', async () => {
    let answer: Awaited<ReturnType<typeof submit>> | undefined;
    const calls = api().calls.length;
    const rows = await added(async () => {
      answer = await submit(form({}, null));
    });
    expect(answer?.status).toBe(400);
    expect(answer?.data.result.status).toBe('error');
    expect(answer?.data.result.error).toEqual({
      image: [AD_MESSAGES.image],
      type: [AD_MESSAGES.type],
      title: [AD_MESSAGES.title],
      applicantName: [AD_MESSAGES.applicantName],
      applicantPhone: [AD_MESSAGES.applicantPhone],
      email: [AD_MESSAGES.email],
      duration: [AD_MESSAGES.duration],
    });
    expect(rows).toEqual([]);
    expect(api().calls.length).toBe(calls);
  });

  it('keeps the typed values (never the image) when some are missing', async () => {
    const typed = { type: 'kakao', title: '  제목  ', applicantPhone: '010-1234', redirectUrl: 'javascript:alert(1)' };
    const { status, data } = await submit(form(typed));
    expect(status).toBe(400);
    expect(data.result.initialValue).toEqual(typed);
    expect(data.result.initialValue).not.toHaveProperty('image');
    expect(data.result.error).toMatchObject({
      applicantName: [AD_MESSAGES.applicantName],
      applicantPhone: [AD_FORMAT_MESSAGES.phone],
      email: [AD_MESSAGES.email],
      redirectUrl: [AD_FORMAT_MESSAGES.redirectUrl],
      duration: [AD_MESSAGES.duration],
      content: [AD_MESSAGES.content],
    });
    expect(data.result.error).not.toHaveProperty('image');
  });

  it('refuses a text file named .png: 400 with the image type message, nothing stored, no api call', async () => {
    const text = new File(['<svg onload="alert(1)"></svg>'], 'ad.png', { type: 'image/png' });
    let answer: Awaited<ReturnType<typeof submit>> | undefined;
    const calls = api().calls.length;
    const rows = await added(async () => {
      answer = await submit(form(WEB_FIELDS, text));
    });
    expect(answer?.status).toBe(400);
    expect(answer?.data.result.error).toEqual({ image: [AD_FORMAT_MESSAGES.imageType] });
    expect(answer?.data.result.initialValue).toMatchObject({ title: WEB_FIELDS.title, email: WEB_FIELDS.email });
    expect(rows).toEqual([]);
    expect(api().calls.length).toBe(calls);
  });

  it('says a non-image file is no image together with the other errors, not that the image is missing', async () => {
    const text = new File(['hello'], 'menu.txt', { type: 'text/plain' });
    const calls = api().calls.length;
    const { status, data } = await submit(form({ type: 'web', title: '모현 분식' }, text));
    expect(status).toBe(400);
    expect(data.result.error).toEqual({
      image: ['JPG, PNG, GIF 이미지만 올릴 수 있습니다.'],
      applicantName: [AD_MESSAGES.applicantName],
      applicantPhone: [AD_MESSAGES.applicantPhone],
      email: [AD_MESSAGES.email],
      duration: [AD_MESSAGES.duration],
    });
    expect(api().calls.length).toBe(calls);
  });

  it('refuses an image whose first bytes pass but which the api does not read as an image: 400, not 502', async () => {
    // PNG's first four bytes, then not a PNG: the web's sniff passes, the api's (file-type) does not.
    const fake = new Uint8Array([0x89, 0x50, 0x4e, 0x47, ...new TextEncoder().encode('not really a png at all')]);
    let answer: Awaited<ReturnType<typeof submit>> | undefined;
    const rows = await added(async () => {
      answer = await submit(form(WEB_FIELDS, new File([fake], 'ad.png', { type: 'image/png' })));
    });
    expect(answer?.status).toBe(400);
    expect(answer?.data.result.error).toEqual({ image: [AD_FORMAT_MESSAGES.imageType] });
    expect(answer?.data.result.initialValue).toMatchObject({ title: WEB_FIELDS.title });
    expect(rows).toEqual([]);
  });

  it('refuses an image of 5 MB + 1 byte with the size message, keeping the other typed fields', async () => {
    const big = new Uint8Array(IMAGE_MAX_BYTES + 1);
    big.set(TINY_PNG);
    let answer: Awaited<ReturnType<typeof submit>> | undefined;
    const calls = api().calls.length;
    const rows = await added(async () => {
      answer = await submit(form(WEB_FIELDS, new File([big], 'big.png', { type: 'image/png' })));
    });
    expect(answer?.status).toBe(400);
    expect(answer?.data.result.error).toEqual({ image: [AD_FORMAT_MESSAGES.imageSize] });
    expect(answer?.data.result.initialValue).toEqual(WEB_FIELDS);
    expect(rows).toEqual([]);
    expect(api().calls.length).toBe(calls);
  });

  it('takes an image of exactly 5 MB', async () => {
    const max = new Uint8Array(IMAGE_MAX_BYTES);
    max.set(TINY_PNG);
    const rows = await added(() => submit(form(WEB_FIELDS, new File([max], 'max.png', { type: 'image/png' }))));
    expect(rows).toHaveLength(1);
    expect(await api().imageUpload(rows[0].imageUrl)).toMatchObject({ status: 'stored', byteSize: IMAGE_MAX_BYTES });
  });

  it('refuses a body that is no multipart form with 400, not 500: JSON, and a urlencoded form (the image form is multipart only)', async () => {
    const json = new Request('http://localhost/ads/apply', {
      method: 'POST',
      body: JSON.stringify(WEB_FIELDS),
      headers: { 'Content-Type': 'application/json' },
    });
    const refused = await submit(json);
    expect(refused.status).toBe(400);
    expect(refused.data.result.error).toEqual({ '': [AD_MESSAGES.submitFailed] });
    const urlencoded = await submit(
      new Request('http://localhost/ads/apply', { method: 'POST', body: new URLSearchParams(WEB_FIELDS) }),
    );
    expect(urlencoded.status).toBe(400);
    expect(urlencoded.data.result.error).toEqual({ '': [AD_MESSAGES.submitFailed] });
  });

  it('refuses a field the form does not have, or one of its fields sent twice, before parsing it', async () => {
    const extra = form(WEB_FIELDS, new File([TINY_PNG], 'a.png', { type: 'image/png' }));
    extra.append('admin', 'true');
    const twice = form(WEB_FIELDS, new File([TINY_PNG], 'a.png', { type: 'image/png' }));
    twice.append('title', 'again');
    for (const body of [extra, twice]) {
      const refused = await submit(body);
      expect(refused.status).toBe(400);
      expect(refused.data.result.error).toEqual({ '': [AD_MESSAGES.submitFailed] });
    }
  });

  it('refuses a malformed multipart body with 400', async () => {
    const request = new Request('http://localhost/ads/apply', {
      method: 'POST',
      body: '--b\r\nContent-Disposition: form-data; name="title"\r\n\r\nunterminated',
      headers: { 'Content-Type': 'multipart/form-data; boundary=b' },
    });
    const { status } = await submit(request);
    expect(status).toBeGreaterThanOrEqual(400);
    expect(status).toBeLessThan(500);
  });

  it('answers 502 with the docs/product.md §8 message and keeps the values when the api cannot be reached', async () => {
    const context = freshContext();
    context.api = { ...context.api, fetch: () => Promise.reject(new TypeError('fetch failed')) };
    let answer: Awaited<ReturnType<typeof submit>> | undefined;
    const rows = await added(async () => {
      answer = await submit(form(WEB_FIELDS), context);
    });
    expect(answer?.status).toBe(502);
    expect(answer?.data.result.error).toEqual({ '': [AD_MESSAGES.submitFailed] });
    expect(answer?.data.result.initialValue).toEqual(WEB_FIELDS);
    expect(rows).toEqual([]);
  });

  it('answers 502 when the api answers 503 to the presign', async () => {
    const context = freshContext();
    const reach = context.api.fetch;
    context.api = {
      ...context.api,
      fetch: async (request) =>
        new URL(request.url).pathname === '/api/s3/presigned-url/image'
          ? Response.json({ message: 'Service Unavailable' }, { status: 503 })
          : reach(request),
    };
    const rows = await added(async () => {
      const { status, data } = await submit(form(WEB_FIELDS), context);
      expect(status).toBe(502);
      expect(data.result.error).toEqual({ '': [AD_MESSAGES.submitFailed] });
      expect(data.result.initialValue).toEqual(WEB_FIELDS);
    });
    expect(rows).toEqual([]);
  });

  it('answers 503 saying no more images can be taken for now, keeping the values, once the api’s image storage is full', async () => {
    // An api whose image storage holds one image: the first application fills it, the presign of the next answers 507.
    const full = await startWebApi({ imageStorageMaxBytes: TINY_PNG.byteLength });
    try {
      const context = full.context({ clientIp: '192.0.2.250' });
      expect((await submit(form(WEB_FIELDS), context)).submitted).toBe(true);
      const presigns = full.calls.length;
      const { status, data } = await submit(form({ ...WEB_FIELDS, title: '두 번째 가게' }), context);
      expect(full.calls.slice(presigns).map((request) => new URL(request.url).pathname)).toEqual([
        '/api/s3/presigned-url/image',
      ]);
      expect(status).toBe(503);
      expect(data.result.error).toEqual({
        '': [`${AD_MESSAGES.submitFailed} 지금은 이미지를 더 받을 수 없습니다. 잠시 후 다시 시도해주세요.`],
      });
      expect(data.result.initialValue).toEqual({ ...WEB_FIELDS, title: '두 번째 가게' });
      expect((await full.adRequests()).map((row) => row.title)).toEqual([WEB_FIELDS.title]);
    } finally {
      await full.close();
    }
  });

  it('answers 429 saying its pending applications hold the room once the address holds its images', async () => {
    const context = freshContext();
    const largest = new Uint8Array(IMAGE_MAX_BYTES);
    largest.set(TINY_PNG);
    const image = () => new File([largest], 'shop.png', { type: 'image/png' });
    // Five images at the 5 MB cap are the address's room (25 MB, ADR 027).
    for (let i = 0; i < 5; i++) expect((await submit(form(WEB_FIELDS, image()), context)).submitted).toBe(true);
    const answer = await submit(form(WEB_FIELDS, image()), context);
    expect(answer.status).toBe(429);
    expect(answer.data.result.error).toEqual({
      '': [
        `${AD_MESSAGES.submitFailed} 지금 쓰는 인터넷 연결에서 보낸 신청 가운데 검토를 기다리는 신청이 많아 더 받을 수 없습니다. ` +
          '앞선 신청이 검토된 뒤 다시 신청하거나, 문의하기로 알려주세요.',
      ],
    });
  });

  it('answers 429 asking to try again later once the api rate-limits the phone', async () => {
    const context = freshContext();
    for (let i = 0; i < 5; i++) expect((await submit(form(WEB_FIELDS), context)).submitted).toBe(true);
    let answer: Awaited<ReturnType<typeof submit>> | undefined;
    const rows = await added(async () => {
      answer = await submit(form(WEB_FIELDS), context);
    });
    expect(answer?.status).toBe(429);
    const [message] = answer?.data.result.error?.[''] ?? [];
    expect(message).toContain(AD_MESSAGES.submitFailed);
    expect(message).toContain('잠시 후 다시 시도해주세요');
    expect(answer?.data.result.initialValue).toEqual(WEB_FIELDS);
    expect(rows).toEqual([]);
    // Another phone is not limited.
    expect((await submit(form(WEB_FIELDS))).submitted).toBe(true);
  });
});

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

    it('shows the received message without a link once the link was shown (a reload)', async () => {
      const document = await render(null);
      expect(document.querySelector('[role="status"]')?.textContent).toContain(AD_MESSAGES.submitted);
      expect(document.querySelector('section[aria-labelledby="status-link-title"]')).toBeNull();
    });
  });
});
