/**
 * /ads/apply's loader, and its action taking an application or refusing it for its fields, keeping
 * what was typed.
 */
import { loader } from '~/routes/ads.apply';
import { AD_FORMAT_MESSAGES, AD_MESSAGES } from '../../contract/ads';
import { TEXT_MESSAGES } from '../../contract/strings';
import { TINY_PNG } from '../../tests/setup/web-api';
import { adsApplyActionFor, form, WEB_FIELDS } from '../../tests/setup/ads-apply-action';

const { api, freshContext, submit, added } = adsApplyActionFor();

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
});
