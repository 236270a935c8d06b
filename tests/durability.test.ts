/**
 * Acknowledged writes survive a crash: 200 ad applications and inquiries sent at once to the api
 * process, killed with SIGKILL mid-run. Every write that got its success answer is in the database
 * afterwards, and none is half-stored: every request has its stored image, on disk, and its upload
 * row. The database is reopened at once, as a restart would (the dead owner's lock is taken over).
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ImageUploadResponseSchema } from '../contract/ads';
import { openDatabase } from '../api/db/client';
import { adApplications, imageUploads, inquiries } from '../api/db/schema';
import { PNG } from './fixtures/images';
import { createTestDatabase, testDatabaseKinds } from './setup/db';
import { freePort, runEntry } from './setup/process';

const PER_KIND = 100; // applications, and as many inquiries
const KILL_AFTER = 25; // acknowledged applications before the SIGKILL (inquiries, one call each, go faster)

describe.each(testDatabaseKinds)('acknowledged writes across a SIGKILL on %s', (kind) => {
  it('keeps every acknowledged application and inquiry, none half-stored', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'campus-bus-durability-'));
    const postgres = kind === 'postgres' ? await createTestDatabase('postgres') : null;
    const port = await freePort();
    const api = runEntry('build/api.js', {
      DATA_DIR: dataDir,
      API_PORT: String(port),
      CLOCK_START: '2026-11-23T08:00:00+09:00',
      API_SERVICE_TOKEN: 't'.repeat(40),
      ...(postgres ? { DATABASE_URL: postgres.url! } : {}),
    });
    const run = `run-${Date.now()}`;
    const acknowledged = { applications: new Map<number, string>(), inquiries: new Set<string>() };
    try {
      await api.waitFor(/\[api\] listening/);
      const base = `http://127.0.0.1:${port}`;
      // Each write from its own phone, each of its own network: the api limits writes per client
      // address and per network (IPv4 /24).
      const phone = (i: number, kindOfWrite: number) => ({
        'X-Forwarded-For': `10.${kindOfWrite}.${i}.1`,
      });

      const apply = async (i: number) => {
        const title = `${run} 광고 ${i}`;
        const presign = await fetch(`${base}/api/s3/presigned-url/image`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json', ...phone(i, 1) },
          body: JSON.stringify({ type: 'web', extension: 'png', byteSize: PNG.byteLength }),
        });
        const { presignedUrl, imageUrl } = ImageUploadResponseSchema.parse(await presign.json());
        const put = await fetch(new URL(presignedUrl, base), {
          method: 'PUT',
          headers: { 'Content-Type': 'image/png' },
          body: PNG.slice(),
        });
        if (put.status !== 204) return;
        const submit = await fetch(`${base}/api/ads/web/submit`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json', ...phone(i, 2) },
          body: JSON.stringify({
            type: 'web',
            title,
            applicantName: '홍길동',
            applicantPhone: '01012345678',
            applicantEmail: 'owner@example.com',
            imageUrl,
            duration: 1,
          }),
        });
        if (submit.status === 201) acknowledged.applications.set(((await submit.json()) as { id: number }).id, title);
      };
      const inquire = async (i: number) => {
        const content = `${run} 문의 ${i}`;
        const response = await fetch(`${base}/api/inquiries`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json', ...phone(i, 3) },
          body: JSON.stringify({ content }),
        });
        if (response.status === 201) acknowledged.inquiries.add(content);
      };

      const writes = Array.from({ length: PER_KIND }, (_, i) => [apply(i), inquire(i)]).flat();
      await vi.waitFor(() => expect(acknowledged.applications.size).toBeGreaterThanOrEqual(KILL_AFTER), {
        timeout: 30_000,
        interval: 5,
      });
      api.child.kill('SIGKILL');
      await Promise.allSettled(writes); // those cut by the kill fail; they were never acknowledged
      await api.exited();
      expect(acknowledged.inquiries.size).toBeGreaterThan(0);
      expect(acknowledged.applications.size).toBeLessThan(PER_KIND); // killed mid-run

      // The killed owner's lock is taken over at once: it is no longer running (api/db/data-dir-lock.ts).
      const database = postgres ?? (await openDatabase({ dataDir }));
      try {
        const applications = await database.db.select().from(adApplications);
        const stored = new Map(applications.map((application) => [application.id, application]));
        for (const [id, title] of acknowledged.applications) expect(stored.get(id)?.title).toBe(title);
        const contents = new Set((await database.db.select().from(inquiries)).map((inquiry) => inquiry.content));
        for (const content of acknowledged.inquiries) expect(contents.has(content)).toBe(true);

        // None half-stored: each application's image is stored (upload row) and on disk.
        const uploads = new Map((await database.db.select().from(imageUploads)).map((u) => [u.imageUrl, u]));
        for (const application of applications) {
          const upload = uploads.get(application.imageUrl);
          expect(upload?.status).toBe('stored');
          expect(existsSync(join(dataDir, 'images', upload!.key))).toBe(true);
        }
        // No orphan: every upload recorded as stored has its file.
        for (const upload of uploads.values()) {
          if (upload.status === 'stored') expect(existsSync(join(dataDir, 'images', upload.key))).toBe(true);
        }
      } finally {
        await database.close();
      }
    } finally {
      if (api.child.exitCode === null) api.child.kill('SIGKILL');
      if (postgres) await postgres.close().catch(() => undefined);
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 120_000);
});
