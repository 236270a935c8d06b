/** Rows for the ads domain's tests (applications, managed, counters): ads and applications inserted directly. */
import type { AdType } from '../../contract/ads';
import type { Db } from '../db/client';
import { adApplications, ads } from '../db/schema';

export const DAY_MS = 86_400_000;
/** The tests' clock: a Monday morning in Seoul. */
export const NOW = new Date('2026-11-23T10:00:00+09:00');
/** The instant `offsetMs` after NOW. */
export const at = (offsetMs: number) => new Date(NOW.getTime() + offsetMs);
/** The acting admin, as the audit log names them. */
export const ACTOR = 'alice';

/** Inserters into the database `db()` returns (read at each call: each test has a fresh one). */
export function adRowsIn(db: () => Db) {
  /** A pending application stored as the submit route would, with its own image URL. */
  async function pendingApplication(type: AdType, duration = 1): Promise<number> {
    const [row] = await db()
      .insert(adApplications)
      .values({
        type,
        title: `${type} ad`,
        applicantName: '홍길동',
        applicantPhone: '01012345678',
        applicantEmail: 'a@example.com',
        redirectUrl: 'https://example.com/shop',
        imageUrl: `/images/${type}-application.png`,
        content: type === 'kakao' ? '점심 할인' : null,
        duration,
        createdAt: at(-DAY_MS),
      })
      .returning({ id: adApplications.id });
    return row.id;
  }

  /** An ad inserted directly (as legacy data or an admin's own ad would be). */
  async function insertAd(values: {
    type?: AdType;
    title?: string;
    position: number;
    startsAt?: Date;
    endsAt?: Date;
    redirectUrl?: string | null;
  }): Promise<number> {
    const [row] = await db()
      .insert(ads)
      .values({
        type: values.type ?? 'web',
        title: values.title ?? `ad ${values.position}`,
        redirectUrl: values.redirectUrl === undefined ? 'https://example.com/' : values.redirectUrl,
        imageUrl: `/images/web-${values.position}.png`,
        position: values.position,
        startsAt: values.startsAt ?? at(-DAY_MS),
        endsAt: values.endsAt ?? at(DAY_MS),
        createdAt: at(-DAY_MS),
        updatedAt: at(-DAY_MS),
      })
      .returning({ id: ads.id });
    return row.id;
  }

  return { pendingApplication, insertAd };
}
