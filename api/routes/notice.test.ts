import {
  AdminNoticeSchema,
  AuditListResponseSchema,
  DEFAULT_SERVICE_NOTICE,
  ServiceNoticeSchema,
  STALE_EDIT_MESSAGE,
} from '../../contract/admin';
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
  /** The admin's notice, with its version. */
  async function adminNoticeWithVersion(app: ReturnType<typeof api>) {
    const response = await app.request('/api/admin/notice', { headers: authorized });
    expect(response.status).toBe(200);
    return AdminNoticeSchema.parse(await response.json());
  }
  async function adminNotice(app: ReturnType<typeof api>) {
    const { version: _, ...notice } = await adminNoticeWithVersion(app);
    return notice;
  }
  const put = (app: ReturnType<typeof api>, body: unknown) =>
    app.request('/api/admin/notice', {
      method: 'PUT',
      headers: { ...authorized, 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
    });
  /** Saves `body` as the admin page does: on the version it just read (unless `body` names one). */
  const save = async (app: ReturnType<typeof api>, body: unknown) => {
    const isNotice = typeof body === 'object' && body !== null && !Array.isArray(body) && !('version' in body);
    return put(app, isNotice ? { ...body, version: (await adminNoticeWithVersion(app)).version } : body);
  };

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
      const elsewhere = { enabled: true, title: '다른 인스턴스', text: '저장됨', titleEn: null, textEn: null };
      await saveNotice(
        database().db,
        { ...elsewhere, version: null },
        { actor: 'bob', enabledByDefault: false },
        clock.now(),
      );
      expect((await publicNotice(app)).enabled).toBe(false);
      clock.advance(1);
      expect(await publicNotice(app)).toStrictEqual(elsewhere);
      // This instance's save: at once.
      const notice = { enabled: false, title: '점검 안내', text: '오늘은 쉽니다.', titleEn: null, textEn: null };
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
      // With its English (trimmed like the Korean: docs/product.md §1 Languages).
      const notice = {
        enabled: false,
        title: '  점검 안내 ',
        text: '오늘 밤 점검합니다.',
        titleEn: ' Maintenance ',
        textEn: 'Tonight.',
      };
      const response = await save(app, notice);
      expect(response.status).toBe(200);
      expect(response.headers.get('cache-control')).toBe('no-store');
      const saved = {
        enabled: false,
        title: '점검 안내',
        text: '오늘 밤 점검합니다.',
        titleEn: 'Maintenance',
        textEn: 'Tonight.',
      };
      expect(await response.json()).toStrictEqual({ ...saved, version: clock.now().toISOString() });
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

    it('refuses a save made on a version another admin has changed since: 409, 다른 관리자가 먼저 바꿨습니다, nothing written', async () => {
      const app = api();
      const read = await adminNoticeWithVersion(app);
      expect(read.version).toBeNull();
      const alices = { enabled: true, title: '앨리스의 안내', text: '먼저 저장', titleEn: null, textEn: null };
      const bobs = { enabled: false, title: '밥의 안내', text: '나중에 저장', titleEn: null, textEn: null };
      // Both read the same version; Alice saves first.
      expect((await put(app, { ...alices, version: read.version })).status).toBe(200);
      const refused = await put(app, { ...bobs, version: read.version });
      expect(refused.status).toBe(409);
      expect(ApiErrorSchema.parse(await refused.json()).message).toBe(STALE_EDIT_MESSAGE);
      expect(await adminNotice(app)).toStrictEqual(alices);
      // Bob sees Alice's, and saves on her version.
      const again = await adminNoticeWithVersion(app);
      expect((await put(app, { ...bobs, version: again.version })).status).toBe(200);
      expect(await adminNotice(app)).toStrictEqual(bobs);
      // Two saves of one version at once: one is taken.
      const latest = (await adminNoticeWithVersion(app)).version;
      const statuses = await Promise.all([alices, bobs].map((notice) => put(app, { ...notice, version: latest })));
      expect(statuses.map((response) => response.status).sort()).toEqual([200, 409]);
      const audit = await app.request('/api/admin/audit', { headers: authorized });
      expect(AuditListResponseSchema.parse(await audit.json()).data).toHaveLength(3);
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
