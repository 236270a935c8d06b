/**
 * Done on an ad card (docs/product.md §4.6, §7, §8): a PUT of the list only when something changed, a
 * new image through the presigned flow, and each failure's message.
 */
import { interceptingContext, removeAd, seedAd, updateAd } from '../../tests/setup/admin-web';
import { adEditPageFor } from '../../tests/setup/admin-ad-edit';
import { TINY_PNG } from '../../tests/setup/web-api';

const { api, context, callsDuring, editPage, save, afterRedirect, putsIn } = adEditPageFor();

/** The page a stale save is sent back to: the card in edit, with its flash. */
async function followStale(response: Response, type: string, id: number) {
  expect(response.status).toBe(303);
  expect(response.headers.get('Location')).toBe(`/admin-only/ads/edit/${type}?edit=${id}`);
  const cookie = response.headers.get('Set-Cookie')!.split(';')[0];
  return editPage(type, { search: `?edit=${id}`, withCookie: cookie });
}

const STALE_AD_MESSAGE =
  '다른 관리자가 먼저 바꿨습니다. 지금 저장된 내용을 보여드립니다. 바꿀 내용을 다시 입력해 저장해주세요.';

describe('done on a card (save)', () => {
  it('refuses a save on an ad another admin changed since the card opened: nothing sent, the card again with what is saved now', async () => {
    const id = await seedAd(api(), 'web', { title: '처음 제목' });
    const [opened] = (await editPage('web')).data.ads;
    expect(opened.version).toMatch(/^\d{4}-\d\d-\d\dT/);
    // Another admin's save, after this card was opened.
    await updateAd(api(), id, { title: '다른 관리자의 제목', updatedAt: new Date(Date.parse(opened.version!) + 1000) });
    let response: Response | undefined;
    const calls = await callsDuring(async () => {
      ({ response } = await save('web', id, { title: '내 제목', redirectUrl: '', version: opened.version! }));
    });
    expect(putsIn(calls)).toEqual([]);
    const next = await followStale(response!, 'web', id);
    expect(next.data.flash).toEqual({ tone: 'error', message: STALE_AD_MESSAGE });
    expect(next.page.querySelector('[role="alert"]')?.textContent).toContain(STALE_AD_MESSAGE);
    expect(next.page.querySelector<HTMLInputElement>('.ad-card__form input[name="title"]')?.value).toBe(
      '다른 관리자의 제목',
    );
  });

  it("refuses it too when the other admin's save lands between this one's read and its PUT (the api's 409)", async () => {
    const id = await seedAd(api(), 'web', { title: '처음 제목' });
    const [opened] = (await editPage('web')).data.ads;
    const racing = interceptingContext(context(), async (request) => {
      if (request.method === 'PUT' && request.url.endsWith('/ads/bulk')) {
        await updateAd(api(), id, {
          title: '다른 관리자의 제목',
          updatedAt: new Date(Date.parse(opened.version!) + 1000),
        });
      }
      return undefined;
    });
    const { response } = await save('web', id, { title: '내 제목', redirectUrl: '', version: opened.version! }, racing);
    const next = await followStale(response, 'web', id);
    expect(next.data.flash).toEqual({ tone: 'error', message: STALE_AD_MESSAGE });
    expect(next.data.ads[0].title).toBe('다른 관리자의 제목');
  });

  it('sends no PUT when title and link are unchanged and no image was chosen', async () => {
    const id = await seedAd(api(), 'web', { title: '캠퍼스 카페', redirectUrl: 'https://cafe.example.com/' });
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
    const id = await seedAd(api(), 'kakao');
    await updateAd(api(), id, { title: null, redirectUrl: null });
    const calls = await callsDuring(() => save('kakao', id, { title: '', redirectUrl: '' }));
    expect(putsIn(calls)).toEqual([]);
  });

  it("a new title is saved with one PUT of the list, then 'ad has been modified'", async () => {
    const first = await seedAd(api(), 'web', { title: '첫 광고' });
    const second = await seedAd(api(), 'web', { title: '둘째 광고', redirectUrl: 'https://two.example.com/' });
    let response: Response | undefined;
    const calls = await callsDuring(async () => {
      ({ response } = await save('web', second, { title: '새 제목', redirectUrl: 'https://two.example.com/' }));
    });
    expect(putsIn(calls)).toEqual(['PUT /api/web/ads/bulk']);
    const put = api()
      .calls.filter((request) => request.method === 'PUT')
      .at(-1)!;
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
    const id = await seedAd(api(), 'web', { title: '캠퍼스 카페' });
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
    const edited = await seedAd(api(), 'web', { title: '캠퍼스 카페' });
    const other = await seedAd(api(), 'web', { title: '다른 광고' });
    // Another admin deletes the other ad between this page's read of the list and its PUT.
    const racing = interceptingContext(context(), async (request) => {
      if (request.method === 'PUT' && request.url.endsWith('/ads/bulk')) await removeAd(api(), other);
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
    const id = await seedAd(api(), 'web', { title: '캠퍼스 카페' });
    const racing = interceptingContext(context(), async (request) => {
      if (request.method === 'PUT' && request.url.endsWith('/ads/bulk')) await removeAd(api(), id);
      return undefined;
    });
    const refused = await save('web', id, { title: '새 제목', redirectUrl: '' }, racing);
    expect(refused.response.status).toBe(502);
    expect(refused.actionData?.result.error).toEqual({
      '': [`Failed to modify the ad: 웹 배너 광고 ${id}번을 찾을 수 없습니다. 다른 관리자가 삭제했을 수 있습니다.`],
    });
  });

  it('the edited ad deleted meanwhile: the page shows the refusal, though the card is gone', async () => {
    const id = await seedAd(api(), 'web', { title: '캠퍼스 카페' });
    await removeAd(api(), id); // deleted by another admin while this one had the card open
    const refused = await save('web', id, { title: '새 제목', redirectUrl: '' });
    expect(refused.response.status).toBe(404);
    const { text } = await editPage('web', { search: `?edit=${id}`, actionData: refused.actionData });
    expect(text).toContain('Failed to modify the ad: 이 광고는 이미 삭제되었습니다.');
  });

  it("a PUT answered with success false: 'Failed to modify the ad: {server message}' (docs/product.md §8)", async () => {
    const id = await seedAd(api(), 'kakao', { title: '학생식당' });
    const refusing = interceptingContext(context(), (request) =>
      request.method === 'PUT' ? Response.json({ success: false, message: 'the list is locked' }) : undefined,
    );
    const refused = await save('kakao', id, { title: '학생식당 할인', redirectUrl: '' }, refusing);
    expect(refused.formError).toBe('Failed to modify the ad: the list is locked');
  });

  it("a PUT failing without a message (500, empty body): 'Failed to modify the ad.'", async () => {
    const id = await seedAd(api(), 'web', { title: '캠퍼스 카페' });
    const failing = interceptingContext(context(), (request) =>
      request.method === 'PUT' ? new Response(null, { status: 500 }) : undefined,
    );
    const refused = await save('web', id, { title: '새 제목', redirectUrl: '' }, failing);
    expect(refused.response.status).toBe(502);
    expect(refused.formError).toBe('Failed to modify the ad.');
    expect((await editPage('web')).data.ads[0].title).toBe('캠퍼스 카페');
  });

  /** Saves a new title, link and image on a fresh ad while the presign answers `status` with `message`. */
  async function saveWhilePresignAnswers(status: number, message: string) {
    const id = await seedAd(api(), 'web', { title: '캠퍼스 카페' });
    const failing = interceptingContext(context(), (request, url) =>
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
