/**
 * The ad edit page (docs/product.md §2.10.3 Ad edit page, §4.6 Ad edit card, §7, §8) against the real api in-process:
 * a signed-in admin, ads approved through the api's own model, the route's loader and action called
 * as Remix calls them, and the page server-rendered from what they answered. Every message is the
 * spec's text, written out here; failures come from the api itself or from a context whose api fails
 * in one chosen way.
 */
import type { SubmissionResult } from '@conform-to/react';
import type { AppLoadContext } from '@remix-run/node';
import AdEditPage, { action, loader } from '~/routes/admin-only.ads.edit.$type';
import { action as loginAction } from '~/routes/admin-only_.login';
import {
  adminContext,
  cookieOf,
  interceptingContext,
  removeAd,
  resetAds,
  seedAd,
  startSignedInAdmin,
  updateAd,
  WEB_ORIGIN,
} from '../../tests/setup/admin-web';
import { renderRoute } from '../../tests/setup/render-route';
import { TINY_PNG, type WebApi } from '../../tests/setup/web-api';

const SERVICE_TOKEN = 'test-service-token-for-the-edit-page';
const PATH = '/admin-only/ads/edit/:type';

let api: WebApi;
let context: AppLoadContext;
let cookie: string;
let ipCounter = 0;

beforeAll(async () => {
  ({ api, context, cookie } = await startSignedInAdmin(SERVICE_TOKEN, loginAction));
});
afterAll(() => api.close());
beforeEach(async () => {
  await resetAds(api);
  // Each test its own client address, so the api's per-IP upload limit never carries over.
  context = adminContext(api, SERVICE_TOKEN, { clientIp: `192.0.2.${++ipCounter}` });
  vi.spyOn(console, 'error').mockImplementation(() => {});
});
afterEach(() => vi.restoreAllMocks());

/** The api calls made while `run` ran, as "METHOD /path". */
async function callsDuring(run: () => Promise<unknown>): Promise<string[]> {
  const before = api.calls.length;
  await run();
  return api.calls.slice(before).map((request) => `${request.method} ${new URL(request.url).pathname}`);
}

/** The session check every admin request makes (requireAdmin). */
const SESSION_CHECK = 'GET /api/admin/session';

type PageOptions = { search?: string; withCookie?: string; on?: AppLoadContext; actionData?: object };

/** The edit page of `type` as the admin sees it: the loader's answer and the rendered page. */
async function editPage(
  type: string,
  { search = '', withCookie = cookie, on = context, actionData }: PageOptions = {},
) {
  const url = `/admin-only/ads/edit/${type}${search}`;
  const response = await loader({
    request: new Request(`${WEB_ORIGIN}${url}`, { headers: { Cookie: withCookie } }),
    context: on,
    params: { type },
  });
  const data = await response.json();
  const page = await renderRoute(AdEditPage, { path: PATH, url, loaderData: data, actionData });
  return { response, data, page, text: page.body.textContent ?? '' };
}

/** Posts `fields` (multipart, as the page's forms do) to the action of `type`'s page. */
async function post(type: string, fields: Record<string, string | File>, { search = '', on = context } = {}) {
  const body = new FormData();
  for (const [name, value] of Object.entries(fields)) body.append(name, value);
  return action({
    request: new Request(`${WEB_ORIGIN}/admin-only/ads/edit/${type}${search}`, {
      method: 'POST',
      body,
      headers: { Cookie: cookie, Origin: WEB_ORIGIN },
    }),
    context: on,
    params: { type },
  });
}

/** Done on card `id` with `fields`; a refusal is rendered on the card in edit (?edit=id) with the action's data. */
async function save(type: string, id: number, fields: Record<string, string | File>, on = context) {
  const search = `?edit=${id}`;
  const response = await post(type, { intent: 'save', id: String(id), ...fields }, { search, on });
  if (response.status === 303) return { response, formError: undefined };
  const actionData = (await response.json()) as { result: SubmissionResult<string[]> };
  const { page } = await editPage(type, { search, actionData });
  return {
    response,
    actionData,
    formError: page.querySelector('.ad-card__form [role="alert"]')?.textContent,
  };
}

/** The page after a redirect with a flash message: its status text, red text and completion dialog. */
async function afterRedirect(type: string, response: Response) {
  expect(response.status).toBe(303);
  expect(response.headers.get('Location')).toBe(`/admin-only/ads/edit/${type}`);
  const next = await editPage(type, { withCookie: cookieOf(response) });
  const dialog = next.page.querySelector('[role="alertdialog"]');
  return {
    ...next,
    status: next.page.querySelector('[role="status"]')?.textContent,
    alert: next.page.querySelector('[role="alert"]')?.textContent,
    dialogTitle: dialog?.querySelector('h2')?.textContent,
    dialogMessage: dialog?.querySelector('p')?.textContent,
    dialogButtons: [...(dialog?.querySelectorAll('a, button') ?? [])].map((element) => element.textContent),
  };
}

const putsIn = (calls: string[]) => calls.filter((call) => call.startsWith('PUT '));

describe('loader and page', () => {
  it("type foo: heading 'Ad management' and 'Invalid ad type.', calling nothing but the session check", async () => {
    let answer: Awaited<ReturnType<typeof editPage>> | undefined;
    const calls = await callsDuring(async () => {
      answer = await editPage('foo');
    });
    expect(calls).toEqual([SESSION_CHECK]);
    expect(answer!.response.status).toBe(404);
    expect(answer!.page.querySelector('h1')?.textContent).toBe('Ad management');
    expect(answer!.page.querySelector('[role="alert"]')?.textContent).toBe('Invalid ad type.');
  });

  it("headings: 'Web ad post / edit' for web, 'Chatbot ad post / edit' for kakao", async () => {
    expect((await editPage('web')).page.querySelector('h1')?.textContent).toBe('Web ad post / edit');
    expect((await editPage('kakao')).page.querySelector('h1')?.textContent).toBe('Chatbot ad post / edit');
  });

  it('lists the ads as cards: title, link and thumbnail', async () => {
    const id = await seedAd(api, 'web', { title: '캠퍼스 카페', redirectUrl: 'https://cafe.example.com/' });
    const { page, text } = await editPage('web');
    const card = page.querySelector('.ad-card');
    expect(card?.querySelector('.ad-card__title')?.textContent).toBe('캠퍼스 카페');
    expect(card?.querySelector('.ad-card__link')?.textContent).toBe('https://cafe.example.com/');
    expect(card?.querySelector('.ad-card__thumb img')?.getAttribute('src')).toMatch(/^\/images\/web-.+\.png$/);
    expect(card?.querySelector(`a[href="/admin-only/ads/edit/web?edit=${id}"]`)?.textContent).toContain('edit');
    expect(text).not.toContain('Failed to load the ad list.');
  });

  it("an ad without title, link and image: '(no title)', '(no link)', 'no image'", async () => {
    const id = await seedAd(api, 'kakao');
    await updateAd(api, id, { title: null, redirectUrl: null, imageUrl: null });
    const { page } = await editPage('kakao');
    const card = page.querySelector('.ad-card');
    expect(card?.querySelector('.ad-card__title')?.textContent).toBe('(no title)');
    expect(card?.querySelector('.ad-card__link')?.textContent).toBe('(no link)');
    expect(card?.querySelector('.ad-card__thumb')?.textContent).toBe('no image');
    expect(card?.querySelector('.ad-card__thumb img')).toBeNull();
  });

  it("the list cannot be loaded: 'Failed to load the ad list.' in red", async () => {
    const down = interceptingContext(context, (_request, url) => {
      if (url.pathname.endsWith('/ads/list')) throw new TypeError('fetch failed');
      return undefined;
    });
    const { response, page } = await editPage('web', { on: down });
    expect(response.status).toBe(502);
    expect(page.querySelector('[role="alert"] .admin-error')?.textContent).toBe('Failed to load the ad list.');
    expect(page.querySelector('h1')?.textContent).toBe('Web ad post / edit');
  });

  it("the list answers success false: 'Failed to load the ad list.' (docs/product.md §7)", async () => {
    const refusing = interceptingContext(context, (_request, url) =>
      url.pathname.endsWith('/ads/list') ? Response.json({ success: false, data: [] }) : undefined,
    );
    const { page } = await editPage('kakao', { on: refusing });
    expect(page.querySelector('[role="alert"]')?.textContent).toBe('Failed to load the ad list.');
  });

  it("delete asks 'Do you want to delete the ad?' with 취소 and 삭제", async () => {
    const id = await seedAd(api, 'web', { title: '캠퍼스 카페' });
    const { page } = await editPage('web', { search: `?delete=${id}` });
    const dialog = page.querySelector('[role="alertdialog"]');
    expect(dialog?.querySelector('h2')?.textContent).toBe('Do you want to delete the ad?');
    expect(dialog?.querySelector('p')?.textContent).toBe('캠퍼스 카페');
    expect([...(dialog?.querySelectorAll('a, button') ?? [])].map((element) => element.textContent)).toEqual([
      '취소',
      '삭제',
    ]);
  });

  it("labels in Korean but the spec's own words: 'edit' and 삭제, 위로 and 아래로; 'done' and 취소 while editing", async () => {
    const id = await seedAd(api, 'web', { title: '캠퍼스 카페' });
    const labels = (scope: Element | null | undefined) =>
      [...(scope?.querySelectorAll('.ad-card__actions > a, .ad-card__actions button') ?? [])].map(
        (element) => element.firstChild?.textContent,
      );
    expect(labels((await editPage('web')).page.querySelector('.ad-card'))).toEqual(['edit', '삭제', '위로', '아래로']);
    const editing = (await editPage('web', { search: `?edit=${id}` })).page.querySelector('.ad-card');
    expect(labels(editing)).toEqual(['done', '취소']);
  });

  it('while one card is edited, the others cannot be edited, deleted or moved (also without JavaScript)', async () => {
    const edited = await seedAd(api, 'web', { title: '수정 중인 광고' });
    const other = await seedAd(api, 'web', { title: '다른 광고' });
    const { page } = await editPage('web', { search: `?edit=${edited}` });
    const card = page.querySelector(`[aria-labelledby="ad-${other}-title"]`);
    expect(card?.querySelectorAll('a')).toHaveLength(0);
    expect(page.querySelector(`a[href$="?delete=${other}"]`)).toBeNull();
    const buttons = [...(card?.querySelectorAll('button') ?? [])];
    expect(buttons.map((button) => [button.firstChild?.textContent, button.hasAttribute('disabled')])).toEqual([
      ['edit', true],
      ['삭제', true],
      ['위로', true],
      ['아래로', true],
    ]);
    // Not while nothing is edited: its delete is a link again.
    expect((await editPage('web')).page.querySelector(`a[href$="?delete=${other}"]`)?.textContent).toBe(
      '삭제 다른 광고',
    );
  });
});

describe('done on a card (save)', () => {
  it('sends no PUT when title and link are unchanged and no image was chosen', async () => {
    const id = await seedAd(api, 'web', { title: '캠퍼스 카페', redirectUrl: 'https://cafe.example.com/' });
    let response: Response | undefined;
    const calls = await callsDuring(async () => {
      ({ response } = await save('web', id, { title: '캠퍼스 카페', redirectUrl: 'https://cafe.example.com/' }));
    });
    expect(putsIn(calls)).toEqual([]);
    expect(response!.status).toBe(303);
    expect(response!.headers.get('Location')).toBe('/admin-only/ads/edit/web');
    expect(response!.headers.get('Set-Cookie')).toBeNull(); // no flash: nothing happened
  });

  it('sends no PUT for an ad without title and link left blank', async () => {
    const id = await seedAd(api, 'kakao');
    await updateAd(api, id, { title: null, redirectUrl: null });
    const calls = await callsDuring(() => save('kakao', id, { title: '', redirectUrl: '' }));
    expect(putsIn(calls)).toEqual([]);
  });

  it("a new title is saved with one PUT of the list, then 'ad has been modified'", async () => {
    const first = await seedAd(api, 'web', { title: '첫 광고' });
    const second = await seedAd(api, 'web', { title: '둘째 광고', redirectUrl: 'https://two.example.com/' });
    let response: Response | undefined;
    const calls = await callsDuring(async () => {
      ({ response } = await save('web', second, { title: '새 제목', redirectUrl: 'https://two.example.com/' }));
    });
    expect(putsIn(calls)).toEqual(['PUT /api/web/ads/bulk']);
    const put = api.calls.filter((request) => request.method === 'PUT').at(-1)!;
    expect(await put.json()).toEqual([
      expect.objectContaining({ id: first, title: '첫 광고' }),
      expect.objectContaining({ id: second, title: '새 제목', redirectUrl: 'https://two.example.com/' }),
    ]);
    const next = await afterRedirect('web', response!);
    expect(next.data.flash).toEqual({ tone: 'success', message: 'ad has been modified' });
    expect(next.status).toBe('ad has been modified');
    expect(next.page.querySelectorAll('.ad-card__title')[1]?.textContent).toBe('새 제목');
  });

  it('a new image goes through the presigned flow and replaces the imageUrl', async () => {
    const id = await seedAd(api, 'web', { title: '캠퍼스 카페' });
    const [before] = (await editPage('web')).data.ads;
    let response: Response | undefined;
    const calls = await callsDuring(async () => {
      ({ response } = await save('web', id, {
        title: '캠퍼스 카페',
        redirectUrl: 'https://cafe.example.com/menu',
        image: new File([TINY_PNG], 'new.png', { type: 'image/png' }),
      }));
    });
    expect(calls).toContain('POST /api/s3/presigned-url/image');
    expect(putsIn(calls)).toEqual([expect.stringMatching(/^PUT \/api\/uploads\//), 'PUT /api/web/ads/bulk']);
    const next = await afterRedirect('web', response!);
    expect(next.status).toBe('ad has been modified');
    expect(next.data.ads[0].imageUrl).toMatch(/^\/images\/web-.+\.png$/);
    expect(next.data.ads[0].imageUrl).not.toBe(before.imageUrl);
  });

  it("another ad deleted meanwhile: the api refuses the list, 'Failed to modify the ad: ' and its message", async () => {
    const edited = await seedAd(api, 'web', { title: '캠퍼스 카페' });
    const other = await seedAd(api, 'web', { title: '다른 광고' });
    // Another admin deletes the other ad between this page's read of the list and its PUT.
    const racing = interceptingContext(context, async (request) => {
      if (request.method === 'PUT' && request.url.endsWith('/ads/bulk')) await removeAd(api, other);
      return undefined;
    });
    const refused = await save('web', edited, { title: '새 제목', redirectUrl: '' }, racing);
    expect(refused.response.status).toBe(502);
    expect(refused.formError).toBe(
      `Failed to modify the ad: 웹 배너 광고 ${other}번을 찾을 수 없습니다. 다른 관리자가 삭제했을 수 있습니다.`,
    );
    expect((await editPage('web')).data.ads[0].title).toBe('캠퍼스 카페');
  });

  it("the edited ad deleted meanwhile: the action answers 'Failed to modify the ad: ' and the api's message", async () => {
    const id = await seedAd(api, 'web', { title: '캠퍼스 카페' });
    const racing = interceptingContext(context, async (request) => {
      if (request.method === 'PUT' && request.url.endsWith('/ads/bulk')) await removeAd(api, id);
      return undefined;
    });
    const refused = await save('web', id, { title: '새 제목', redirectUrl: '' }, racing);
    expect(refused.response.status).toBe(502);
    expect(refused.actionData?.result.error).toEqual({
      '': [`Failed to modify the ad: 웹 배너 광고 ${id}번을 찾을 수 없습니다. 다른 관리자가 삭제했을 수 있습니다.`],
    });
  });

  it('the edited ad deleted meanwhile: the page shows the refusal, though the card is gone', async () => {
    const id = await seedAd(api, 'web', { title: '캠퍼스 카페' });
    await removeAd(api, id); // deleted by another admin while this one had the card open
    const refused = await save('web', id, { title: '새 제목', redirectUrl: '' });
    expect(refused.response.status).toBe(404);
    const { text } = await editPage('web', { search: `?edit=${id}`, actionData: refused.actionData });
    expect(text).toContain('Failed to modify the ad: 이 광고는 이미 삭제되었습니다.');
  });

  it("a PUT answered with success false: 'Failed to modify the ad: {server message}' (docs/product.md §8)", async () => {
    const id = await seedAd(api, 'kakao', { title: '학생식당' });
    const refusing = interceptingContext(context, (request) =>
      request.method === 'PUT' ? Response.json({ success: false, message: 'the list is locked' }) : undefined,
    );
    const refused = await save('kakao', id, { title: '학생식당 할인', redirectUrl: '' }, refusing);
    expect(refused.formError).toBe('Failed to modify the ad: the list is locked');
  });

  it("a PUT failing without a message (500, empty body): 'Failed to modify the ad.'", async () => {
    const id = await seedAd(api, 'web', { title: '캠퍼스 카페' });
    const failing = interceptingContext(context, (request) =>
      request.method === 'PUT' ? new Response(null, { status: 500 }) : undefined,
    );
    const refused = await save('web', id, { title: '새 제목', redirectUrl: '' }, failing);
    expect(refused.response.status).toBe(502);
    expect(refused.formError).toBe('Failed to modify the ad.');
    expect((await editPage('web')).data.ads[0].title).toBe('캠퍼스 카페');
  });

  /** Saves a new title, link and image on a fresh ad while the presign answers `status` with `message`. */
  async function saveWhilePresignAnswers(status: number, message: string) {
    const id = await seedAd(api, 'web', { title: '캠퍼스 카페' });
    const failing = interceptingContext(context, (request, url) =>
      request.method === 'POST' && url.pathname === '/api/s3/presigned-url/image'
        ? Response.json({ message }, { status })
        : undefined,
    );
    let refused: Awaited<ReturnType<typeof save>> | undefined;
    const calls = await callsDuring(async () => {
      refused = await save(
        'web',
        id,
        {
          title: '새 제목',
          redirectUrl: 'https://new.example.com/',
          image: new File([TINY_PNG], 'new.png', { type: 'image/png' }),
        },
        failing,
      );
    });
    return { refused: refused!, calls };
  }

  it("the presign call fails: 'Failed to upload the image.' and nothing is saved", async () => {
    const { refused, calls } = await saveWhilePresignAnswers(500, 'Internal server error');
    expect(refused.response.status).toBe(502);
    expect(refused.formError).toBe('Failed to upload the image.');
    expect(putsIn(calls)).toEqual([]);
  });

  it('the image storage is full (507 to the presign): 503, what frees room, the typed fields kept, nothing saved', async () => {
    const { refused, calls } = await saveWhilePresignAnswers(507, 'Image storage is full; try again later');
    expect(refused.response.status).toBe(503);
    expect(refused.formError).toBe(
      'Failed to upload the image. 이미지 저장 공간이 가득 찼습니다. ' +
        '더 이상 게시하지 않는 광고와 그 광고 요청을 삭제하거나 IMAGE_STORAGE_MAX_MB 값을 늘려주세요.',
    );
    expect(refused.actionData?.result.initialValue).toMatchObject({
      title: '새 제목',
      redirectUrl: 'https://new.example.com/',
    });
    expect(refused.actionData?.result.initialValue).not.toHaveProperty('image');
    expect(putsIn(calls)).toEqual([]);
    expect((await editPage('web')).data.ads[0].title).toBe('캠퍼스 카페');
  });
});

describe('delete', () => {
  it("deletes the ad, then the 'Completed' / 'Deleted' dialog with 확인", async () => {
    const keep = await seedAd(api, 'web', { title: '남는 광고' });
    const gone = await seedAd(api, 'web', { title: '지울 광고' });
    const response = await post('web', { intent: 'delete', id: String(gone) });
    const next = await afterRedirect('web', response);
    expect(next.data.flash).toEqual({ tone: 'success', title: 'Completed', message: 'Deleted' });
    expect(next.dialogTitle).toBe('Completed');
    expect(next.dialogMessage).toBe('Deleted');
    expect(next.dialogButtons).toEqual(['확인']);
    expect(next.data.ads.map((ad: { id: number }) => ad.id)).toEqual([keep]);
    expect(next.text).not.toContain('지울 광고');
  });

  it("a missing id: 'Failed to delete the ad.' in red", async () => {
    const id = await seedAd(api, 'kakao');
    const response = await post('kakao', { intent: 'delete', id: String(id + 100) });
    const next = await afterRedirect('kakao', response);
    expect(next.data.flash).toEqual({ tone: 'error', message: 'Failed to delete the ad.' });
    expect(next.alert).toBe('Failed to delete the ad.');
    expect(next.page.querySelector('[role="alertdialog"]')).toBeNull();
    expect(next.data.ads).toHaveLength(1);
  });
});
