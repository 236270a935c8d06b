/**
 * The ad edit page (docs/product.md §2.10.3, §4.6): its headings, the cards and their labels, a list
 * that does not load, and deleting an ad.
 */
import { interceptingContext, seedAd, SESSION_CHECK, updateAd } from '../../tests/setup/admin-web';
import { adEditPageFor } from '../../tests/setup/admin-ad-edit';

const { api, context, callsDuring, editPage, post, afterRedirect } = adEditPageFor();

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
    const id = await seedAd(api(), 'web', { title: '캠퍼스 카페', redirectUrl: 'https://cafe.example.com/' });
    const { page, text } = await editPage('web');
    const card = page.querySelector('.ad-card');
    expect(card?.querySelector('.ad-card__title')?.textContent).toBe('캠퍼스 카페');
    expect(card?.querySelector('.ad-card__link')?.textContent).toBe('https://cafe.example.com/');
    expect(card?.querySelector('.ad-card__thumb img')?.getAttribute('src')).toMatch(/^\/images\/web-.+\.png$/);
    expect(card?.querySelector(`a[href="/admin-only/ads/edit/web?edit=${id}"]`)?.textContent).toContain('edit');
    expect(text).not.toContain('Failed to load the ad list.');
  });

  it("an ad without title, link and image: '(no title)', '(no link)', 'no image'", async () => {
    const id = await seedAd(api(), 'kakao');
    await updateAd(api(), id, { title: null, redirectUrl: null, imageUrl: null });
    const { page } = await editPage('kakao');
    const card = page.querySelector('.ad-card');
    expect(card?.querySelector('.ad-card__title')?.textContent).toBe('(no title)');
    expect(card?.querySelector('.ad-card__link')?.textContent).toBe('(no link)');
    expect(card?.querySelector('.ad-card__thumb')?.textContent).toBe('no image');
    expect(card?.querySelector('.ad-card__thumb img')).toBeNull();
  });

  it("the list cannot be loaded: 'Failed to load the ad list.' in red", async () => {
    const down = interceptingContext(context(), (_request, url) => {
      if (url.pathname.endsWith('/ads/list')) throw new TypeError('fetch failed');
      return undefined;
    });
    const { response, page } = await editPage('web', { on: down });
    expect(response.status).toBe(502);
    expect(page.querySelector('[role="alert"] .admin-error')?.textContent).toBe('Failed to load the ad list.');
    expect(page.querySelector('h1')?.textContent).toBe('Web ad post / edit');
  });

  it("the list answers success false: 'Failed to load the ad list.' (docs/product.md §7)", async () => {
    const refusing = interceptingContext(context(), (_request, url) =>
      url.pathname.endsWith('/ads/list') ? Response.json({ success: false, data: [] }) : undefined,
    );
    const { page } = await editPage('kakao', { on: refusing });
    expect(page.querySelector('[role="alert"]')?.textContent).toBe('Failed to load the ad list.');
  });

  it("delete asks 'Do you want to delete the ad?' with 취소 and 삭제", async () => {
    const id = await seedAd(api(), 'web', { title: '캠퍼스 카페' });
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
    const id = await seedAd(api(), 'web', { title: '캠퍼스 카페' });
    const labels = (scope: Element | null | undefined) =>
      [...(scope?.querySelectorAll('.ad-card__actions > a, .ad-card__actions button') ?? [])].map(
        (element) => element.firstChild?.textContent,
      );
    expect(labels((await editPage('web')).page.querySelector('.ad-card'))).toEqual(['edit', '삭제', '위로', '아래로']);
    const editing = (await editPage('web', { search: `?edit=${id}` })).page.querySelector('.ad-card');
    expect(labels(editing)).toEqual(['done', '취소']);
  });

  it('while one card is edited, the others cannot be edited, deleted or moved (also without JavaScript)', async () => {
    const edited = await seedAd(api(), 'web', { title: '수정 중인 광고' });
    const other = await seedAd(api(), 'web', { title: '다른 광고' });
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

describe('delete', () => {
  it("deletes the ad, then the 'Completed' / 'Deleted' dialog with 확인", async () => {
    const keep = await seedAd(api(), 'web', { title: '남는 광고' });
    const gone = await seedAd(api(), 'web', { title: '지울 광고' });
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
    const id = await seedAd(api(), 'kakao');
    const response = await post('kakao', { intent: 'delete', id: String(id + 100) });
    const next = await afterRedirect('kakao', response);
    expect(next.data.flash).toEqual({ tone: 'error', message: 'Failed to delete the ad.' });
    expect(next.alert).toBe('Failed to delete the ad.');
    expect(next.page.querySelector('[role="alertdialog"]')).toBeNull();
    expect(next.data.ads).toHaveLength(1);
  });
});
