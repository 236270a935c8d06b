import { ApiErrorSchema } from '../../contract/bus';
import {
  INQUIRY_CONTENT_MAX,
  INQUIRY_MESSAGES,
  InquiryListResponseSchema,
  InquirySubmitResponseSchema,
} from '../../contract/inquiries';
import { inquiries } from '../db/schema';
import { testApi } from '../../tests/setup/api';
import { testDatabaseFor, testDatabaseKinds } from '../../tests/setup/db';
import { FakeClock } from '../../tests/setup/fakes';
import { tempLocalStore } from '../../tests/setup/storage';
import type { Api } from '../app';

const TOKEN = 'test-service-token-inquiries';

describe.each(testDatabaseKinds)('POST /api/inquiries on %s', (kind) => {
  const database = testDatabaseFor(kind);
  let store: ReturnType<typeof tempLocalStore>;
  let clock: FakeClock;
  let app: Api;
  let ipCounter = 0;

  beforeEach(() => {
    store = tempLocalStore();
    clock = new FakeClock(new Date('2026-11-23T10:00:00+09:00'));
    app = testApi({ db: database().db, storage: store, clock, serviceToken: TOKEN });
  });
  afterEach(() => store.remove());

  /** Sends `body` from `ip` (a fresh client address unless given, so the limit does not bite). */
  const send = (body: unknown, ip = `203.0.113.${++ipCounter}`) =>
    app.request('/api/inquiries', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'X-Forwarded-For': ip },
      body: typeof body === 'string' ? body : JSON.stringify(body),
    });
  const message = async (response: Response) => ApiErrorSchema.parse(await response.json()).message;
  /** The inquiries as the admin list answers them (GET /api/admin/inquiries), newest first. */
  async function listed() {
    const response = await app.request('/api/admin/inquiries', { headers: { Authorization: `Bearer ${TOKEN}` } });
    expect(response.status).toBe(200);
    return InquiryListResponseSchema.parse(await response.json()).data;
  }

  it('stores an inquiry (trimmed, e-mail kept) and answers 201 with the success message of docs/product.md §8; the admin list shows it', async () => {
    const response = await send({
      content: '  1150번 도착 시간이 자꾸 틀려요.\n확인 부탁드립니다.  ',
      email: ' me@example.com ',
    });
    expect(response.status).toBe(201);
    expect(InquirySubmitResponseSchema.parse(await response.json())).toEqual({
      success: true,
      message: '문의가 접수되었습니다.',
    });
    clock.advance(60);
    expect((await send({ content: '좋은 서비스 고맙습니다', email: '' })).status).toBe(201);

    // Sent with no language: Korean (docs/product.md §1 Languages).
    const notRepliedTo = { reply: null, repliedAt: null, locale: 'ko' };
    expect(await listed()).toEqual([
      { id: 2, content: '좋은 서비스 고맙습니다', email: null, createdAt: '2026-11-23T01:01:00.000Z', ...notRepliedTo },
      {
        id: 1,
        content: '1150번 도착 시간이 자꾸 틀려요.\n확인 부탁드립니다.',
        email: 'me@example.com',
        createdAt: '2026-11-23T01:00:00.000Z',
        ...notRepliedTo,
      },
    ]);
  });

  it("refuses empty or whitespace-only content with 400 and the spec's message, storing nothing", async () => {
    for (const body of [{ content: '' }, { content: '   \n\t ' }, {}, { content: null }, { email: 'me@example.com' }]) {
      const response = await send(body);
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect(await message(response)).toBe(`content: ${INQUIRY_MESSAGES.contentRequired}`);
    }
    expect(INQUIRY_MESSAGES.contentRequired).toBe('문의 내용을 입력해주세요');
    expect(await listed()).toEqual([]);
  });

  it('takes 2,000 characters (line breaks sent as CRLF count once) and refuses 2,001', async () => {
    const tooLong = await send({ content: '가'.repeat(INQUIRY_CONTENT_MAX + 1) });
    expect(tooLong.status).toBe(400);
    expect(await message(tooLong)).toBe('content: 문의 내용은 2,000자까지 쓸 수 있습니다. 조금 줄여주세요.');
    expect(await listed()).toEqual([]);

    expect((await send({ content: '가'.repeat(INQUIRY_CONTENT_MAX) })).status).toBe(201);
    const lines = `${'나'.repeat(99)}\r\n`.repeat(20).trimEnd();
    expect(lines.length).toBeGreaterThan(INQUIRY_CONTENT_MAX);
    expect((await send({ content: lines })).status).toBe(201);
    const [withBreaks, full] = await listed();
    expect(withBreaks.content).toHaveLength(INQUIRY_CONTENT_MAX - 1);
    expect(withBreaks.content).not.toContain('\r');
    expect(full.content).toHaveLength(INQUIRY_CONTENT_MAX);
  });

  it('refuses a malformed e-mail, a NUL character and a body that is not JSON', async () => {
    const refusals: [unknown, string][] = [
      [{ content: '문의', email: 'me@' }, `email: ${INQUIRY_MESSAGES.badEmail}`],
      [{ content: '문의', email: 'not an address' }, `email: ${INQUIRY_MESSAGES.badEmail}`],
      [{ content: '문의', email: `${'a'.repeat(250)}@example.com` }, `email: ${INQUIRY_MESSAGES.badEmail}`],
      [{ content: '문의\u0000' }, `content: ${INQUIRY_MESSAGES.invalidCharacter}`],
    ];
    for (const [body, expected] of refusals) {
      const response = await send(body);
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect(await message(response)).toBe(expected);
    }
    expect((await send('content=hello')).status).toBe(400);
    expect(await listed()).toEqual([]);
  });

  it('stores the language of the page it was sent from (docs/product.md §1 Languages): en kept, none is ko, another refused', async () => {
    expect((await send({ content: 'The 1150 never comes on time', locale: 'en' })).status).toBe(201);
    expect((await send({ content: '1150번이 늦어요' })).status).toBe(201);
    const refused = await send({ content: 'Le bus est en retard', locale: 'fr' });
    expect(refused.status).toBe(400);
    expect(await message(refused)).toMatch(/^locale: /);
    const rows = await database().db.select().from(inquiries).orderBy(inquiries.id);
    expect(rows.map(({ content, locale }) => [content, locale])).toEqual([
      ['The 1150 never comes on time', 'en'],
      ['1150번이 늦어요', 'ko'],
    ]);
  });

  it('allows 5 inquiries per client in 15 minutes: the 6th answers 429 with Retry-After, other clients go on', async () => {
    const ip = '198.51.100.77';
    for (let i = 0; i < 5; i += 1) expect((await send({ content: `문의 ${i}` }, ip)).status).toBe(201);
    const limited = await send({ content: '문의 5' }, `${ip}, 10.0.0.1`);
    expect(limited.status).toBe(429);
    const retryAfter = Number(limited.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(15 * 60);
    expect(await listed()).toHaveLength(5);

    expect((await send({ content: '다른 학생의 문의' }, '198.51.100.78')).status).toBe(201);
    expect(await listed()).toHaveLength(6);
  });
});
