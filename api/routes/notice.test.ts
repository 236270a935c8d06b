import { AuditListResponseSchema, DEFAULT_SERVICE_NOTICE, ServiceNoticeSchema } from '../../contract/admin';
import { ApiErrorSchema } from '../../contract/bus';
import { testApi } from '../../tests/setup/api';
import { testDatabaseFor, testDatabaseKinds } from '../../tests/setup/db';
import { FakeClock } from '../../tests/setup/fakes';
import { tempLocalStore } from '../../tests/setup/storage';
import type { ApiParts } from '../compose';
import { saveNotice } from '../admin/notice';

const TOKEN = 'notice-test-service-token-0123456789abcdef';

describe.each(testDatabaseKinds)('service notice api on %s', (kind) => {
  const database = testDatabaseFor(kind);
  let store: ReturnType<typeof tempLocalStore>;
  let clock: FakeClock;
  const api = (deps: Partial<ApiParts> = {}) =>
    testApi({ db: database().db, storage: store, clock, serviceToken: TOKEN, ...deps });

  beforeEach(() => {
    store = tempLocalStore();
    clock = new FakeClock(new Date('2026-11-23T10:00:00+09:00'));
  });
  afterEach(() => store.remove());

  const authorized = { Authorization: `Bearer ${TOKEN}`, 'X-Admin-User': 'alice' };
  async function publicNotice(app: ReturnType<typeof api>) {
    const response = await app.request('/api/notice');
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toBe('no-store');
    const body = await response.json();
    // Exactly the notice: the schema would strip an extra field, so compare the raw answer too.
    expect(ServiceNoticeSchema.parse(body)).toStrictEqual(body);
    return body;
  }
  async function adminNotice(app: ReturnType<typeof api>) {
    const response = await app.request('/api/admin/notice', { headers: authorized });
    expect(response.status).toBe(200);
    return ServiceNoticeSchema.parse(await response.json());
  }
  const save = (app: ReturnType<typeof api>, body: unknown) =>
    app.request('/api/admin/notice', {
      method: 'PUT',
      headers: { ...authorized, 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
    });

  describe('GET /api/notice', () => {
    it('is off with the preset text until an admin saves one', async () => {
      const app = api();
      expect(await publicNotice(app)).toStrictEqual({ enabled: false, ...DEFAULT_SERVICE_NOTICE });
      expect(DEFAULT_SERVICE_NOTICE.text).toContain('공공데이터포털');
      expect(await adminNotice(app)).toStrictEqual({ enabled: false, ...DEFAULT_SERVICE_NOTICE });
    });

    it('is on with the preset text when the deployment starts with SERVICE_NOTICE=on', async () => {
      const app = api({ serviceNoticeDefault: true });
      expect(await publicNotice(app)).toStrictEqual({ enabled: true, ...DEFAULT_SERVICE_NOTICE });
      expect(await adminNotice(app)).toStrictEqual({ enabled: true, ...DEFAULT_SERVICE_NOTICE });
    });

    it('is shared by page views for a second, and an admin’s save shows on the next view at once', async () => {
      const app = api();
      expect((await publicNotice(app)).enabled).toBe(false);
      // Another instance's save (straight to the database): this one shows it within the second.
      const elsewhere = { enabled: true, title: '다른 인스턴스', text: '저장됨' };
      await saveNotice(database().db, elsewhere, { actor: 'bob', enabledByDefault: false }, clock.now());
      expect((await publicNotice(app)).enabled).toBe(false);
      clock.advance(1);
      expect(await publicNotice(app)).toStrictEqual(elsewhere);
      // This instance's save: at once.
      const notice = { enabled: false, title: '점검 안내', text: '오늘은 쉽니다.' };
      expect((await save(app, notice)).status).toBe(200);
      expect(await publicNotice(app)).toStrictEqual(notice);
    });

    it('needs no token: it answers while the admin api is disabled', async () => {
      const app = api({ serviceToken: undefined });
      expect(await publicNotice(app)).toMatchObject({ enabled: false });
    });
  });

  describe('PUT /api/admin/notice', () => {
    it('saves the notice, which the home screen then gets, and audits it with before and after', async () => {
      const app = api({ serviceNoticeDefault: true });
      const notice = { enabled: false, title: '  점검 안내 ', text: '오늘 밤 점검합니다.' };
      const response = await save(app, notice);
      expect(response.status).toBe(200);
      expect(response.headers.get('cache-control')).toBe('no-store');
      const saved = { enabled: false, title: '점검 안내', text: '오늘 밤 점검합니다.' };
      expect(await response.json()).toStrictEqual(saved);
      // Saved beats the deployment's default from now on, on both sides.
      expect(await publicNotice(app)).toStrictEqual(saved);
      expect(await adminNotice(app)).toStrictEqual(saved);
      expect(await publicNotice(api({ serviceNoticeDefault: false }))).toStrictEqual(saved);

      clock.advance(60);
      const turnedOn = { ...saved, enabled: true };
      expect((await save(app, turnedOn)).status).toBe(200);
      expect(await publicNotice(app)).toStrictEqual(turnedOn);

      const audit = await app.request('/api/admin/audit', { headers: authorized });
      const entries = AuditListResponseSchema.parse(await audit.json()).data.reverse();
      expect(
        entries.map(({ at, actor, action, target, before, after }) => ({ at, actor, action, target, before, after })),
      ).toEqual([
        {
          at: '2026-11-23T01:00:00.000Z',
          actor: 'alice',
          action: 'notice',
          target: 'notice',
          before: { enabled: true, ...DEFAULT_SERVICE_NOTICE },
          after: saved,
        },
        {
          at: '2026-11-23T01:01:00.000Z',
          actor: 'alice',
          action: 'notice',
          target: 'notice',
          before: saved,
          after: turnedOn,
        },
      ]);
    });

    it('answers 400 for an invalid notice, saving and auditing nothing', async () => {
      const app = api();
      const valid = { enabled: true, title: '제목', text: '내용' };
      const invalid: [unknown, string][] = [
        [{ ...valid, title: '   ' }, 'title: 제목을 입력해주세요.'],
        [{ ...valid, text: '' }, 'text: 내용을 입력해주세요.'],
        [{ ...valid, title: 'x'.repeat(101) }, 'title: 100자 이하로 입력해주세요.'],
        [{ ...valid, text: 'x'.repeat(2001) }, 'text: 2000자 이하로 입력해주세요.'],
        [{ ...valid, enabled: 'yes' }, 'enabled: Expected boolean, received string'],
        [{ title: '제목', text: '내용' }, 'enabled: Required'],
        [[valid], 'Expected object, received array'],
      ];
      for (const [body, message] of invalid) {
        const response = await save(app, body);
        expect(response.status, JSON.stringify(body)).toBe(400);
        expect(ApiErrorSchema.parse(await response.json()).message).toBe(message);
      }
      expect(await publicNotice(app)).toStrictEqual({ enabled: false, ...DEFAULT_SERVICE_NOTICE });
      const audit = await app.request('/api/admin/audit', { headers: authorized });
      expect(AuditListResponseSchema.parse(await audit.json()).data).toEqual([]);
    });
  });
});
