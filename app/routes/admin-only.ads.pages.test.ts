/**
 * The ad application list and an application's detail page as the admin sees them (docs/product.md §2.10.1,
 * §2.10.2): what they show, and an invalid type.
 */
import { approveAdApplication, seedAdApplication, SESSION_CHECK, takeDownAd } from '../../tests/setup/admin-web';
import { adApplicationPagesFor } from '../../tests/setup/admin-ad-applications';

const { api, context, callsDuring, listPage, detailPage, decide } = adApplicationPagesFor();

describe('application list (/admin-only/ads/{type})', () => {
  it('shows 요청받은 광고가 없습니다. for an empty kakao list', async () => {
    await seedAdApplication(api(), 'web'); // another type's application is not in the kakao list
    const { response, data, page } = await listPage('kakao');
    expect(response.status).toBe(200);
    expect(data).toEqual({ type: 'kakao', applications: [], failed: false });
    expect(page.querySelector('.empty')?.textContent).toBe('요청받은 광고가 없습니다.');
  });

  it("lists each application's title, linking to its detail", async () => {
    const id = await seedAdApplication(api(), 'kakao', { title: '학생식당 할인' });
    const { page } = await listPage('kakao');
    expect(page.body.textContent).not.toContain('요청받은 광고가 없습니다.');
    const link = page.querySelector(`a[href="/admin-only/ads/kakao/confirm/${id}"]`);
    expect(link?.querySelector('.application-list__title')?.textContent).toBe('학생식당 할인');
  });

  it("shows 'invalid ad type' for type foo and calls nothing but the session check", async () => {
    let answer: Awaited<ReturnType<typeof listPage>> | undefined;
    const calls = await callsDuring(async () => {
      answer = await listPage('foo');
    });
    expect(calls).toEqual([SESSION_CHECK]);
    expect(answer!.response.status).toBe(404);
    expect(answer!.page.querySelector('[role="alert"]')?.textContent).toBe('invalid ad type');
    expect(answer!.page.body.textContent).not.toContain('요청받은 광고가 없습니다.');
    expect(console.error).toHaveBeenCalledWith(expect.stringContaining('invalid ad type "foo"'));
  });
});

describe('application detail (/admin-only/ads/{type}/confirm/{id})', () => {
  it("shows 'invalid ad type' for type foo and calls nothing but the session check", async () => {
    let answer: Awaited<ReturnType<typeof detailPage>> | undefined;
    const calls = await callsDuring(async () => {
      answer = await detailPage('foo', 1);
    });
    expect(calls).toEqual([SESSION_CHECK]);
    expect(answer!.response.status).toBe(404);
    expect(answer!.page.querySelector('[role="alert"]')?.textContent).toBe('invalid ad type');
  });

  it('shows the application: id, title, applicant, phone, e-mail, duration, link, note and image', async () => {
    const id = await seedAdApplication(api(), 'web', { title: '캠퍼스 카페', contentForManager: '입금자명: 홍길동' });
    const { page } = await detailPage('web', id);
    const rows = Object.fromEntries(
      [...page.querySelectorAll('.detail-list__row')].map((row) => [
        row.querySelector('dt')?.textContent,
        row.querySelector('dd')?.textContent,
      ]),
    );
    expect(rows).toMatchObject({
      번호: String(id),
      제목: '캠퍼스 카페',
      '신청자 이름': '홍길동',
      전화번호: '010-1234-5678',
      이메일: 'owner@example.com',
      '게재 기간': '1개월',
      '결제 금액': '26,000원',
      '검토자에게 남긴 말': '입금자명: 홍길동',
    });
    expect(page.querySelector('.detail-list__url')?.textContent).toBe('https://cafe.example.com/menu');
    expect(page.querySelector('img.detail-list__image')?.getAttribute('src')).toMatch(/^\/images\/web-.+\.png$/);
  });

  it('asks to find the deposit before approving; without a bank account set, also to e-mail the account, as the form promised', async () => {
    const id = await seedAdApplication(api(), 'web');
    const hint = (page: Document) =>
      [...page.querySelectorAll('.field__hint')].map((p) => p.textContent).find((text) => text?.includes('입금'));
    const unset = await detailPage('web', id);
    expect(hint(unset.page)).toBe(
      '승인하기 전에 신청자 이름(홍길동)으로 26,000원이 입금되었는지 확인해주세요. 사이트에 입금 계좌가 설정되어 ' +
        '있지 않으므로(서버 설정 AD_BANK_NAME 등) 신청자 이메일로 입금 계좌와 금액을 알려주세요. 신청 화면에서 ' +
        '담당자가 이메일로 알려준다고 안내했습니다.',
    );
    const bankAccount = { bank: '농협', number: '351-1234-5678-90', holder: '캠퍼스버스' };
    const publicConfig = {
      bankAccount,
      adSlots: { adfitUnit: null, adsense: null },
      privacyOfficer: null,
      analyticsId: null,
    };
    const set = await detailPage('web', id, { on: { ...context(), publicConfig } });
    expect(hint(set.page)).toBe('승인하기 전에 신청자 이름(홍길동)으로 26,000원이 입금되었는지 확인해주세요.');
    const approve = await detailPage('web', id, { search: '?confirm=approve' });
    expect(approve.page.querySelector('[role="alertdialog"] p')?.textContent).toBe(
      '이 광고 요청을 승인할까요? 입금을 확인한 뒤에 승인해주세요. 승인하면 지금부터 게재 기간이 시작되고 광고 목록 맨 뒤에 추가됩니다.',
    );
  });

  it('a decided application offers no approve or reject, and ?confirm= opens no dialog', async () => {
    const id = await seedAdApplication(api(), 'web');
    await decide('web', id, 'approve');
    const { data, page } = await detailPage('web', id, { search: '?confirm=reject' });
    expect(data.confirm).toBeNull();
    expect(page.querySelector('[role="alertdialog"]')).toBeNull();
    expect(page.querySelector('a[href$="?confirm=reject"]')).toBeNull();
  });

  it('an approved application whose ad an admin deleted says when it was taken down', async () => {
    const id = await seedAdApplication(api(), 'web');
    const adId = await approveAdApplication(api(), 'web', id);
    await takeDownAd(api(), 'web', adId, new Date('2026-11-25T03:04:05Z'));
    const { page } = await detailPage('web', id);
    expect(page.querySelector('.badge')?.parentElement?.textContent).toBe(
      '승인됨 · 광고를 2026-11-25 12:04:05에 내렸습니다 (광고 게시 / 수정에서 삭제).',
    );
  });

  it('an https link renders as a link opening in a new tab with noopener', async () => {
    const id = await seedAdApplication(api(), 'web', { redirectUrl: 'https://cafe.example.com/menu' });
    const { page } = await detailPage('web', id);
    const link = page.querySelector('a[href="https://cafe.example.com/menu"]');
    expect(link?.getAttribute('target')).toBe('_blank');
    expect(link?.getAttribute('rel')?.split(' ')).toContain('noopener');
  });
});
