/**
 * Chatbot ads: each skill response carries one in-period chatbot ad as a basicCard, the
 * served ads taken in turn in the admins' order, with one impression counted per card shown. The
 * counts are kept in memory and written every IMPRESSION_FLUSH_MS (ADR 012), so a skill response never
 * waits for the database.
 */
import { clipText, KAKAO_LIMITS, type BasicCard } from '../../contract/skill';
import { addImpressions } from '../ads/counters';
import { listServedAds } from '../ads/managed';
import type { Db } from '../db/client';
import { failureLog } from '../../lib/failure-log';
import type { Logger } from '../logger';
import { formatKstDate } from '../../contract/kst';
import { isHttpUrl } from '../../contract/links';

/** How long the served chatbot ads are read from memory before the list is read again (ms). */
export const CHATBOT_ADS_CACHE_MS = 30_000;

/**
 * How often the counted impressions are written (ms): one upsert per ad and KST day per flush. A
 * crash loses at most this long's counts; a clean stop flushes (api/runtime.ts).
 */
export const IMPRESSION_FLUSH_MS = 5_000;

/** The label of the card's link button (at most KAKAO_LIMITS.buttonLabel characters). */
export const AD_BUTTON_LABEL = '자세히 보기';

type ServedAd = Awaited<ReturnType<typeof listServedAds>>[number];
/** The list before any read has ended, and after a first read failed. */
const NO_ADS: ServedAd[] = [];

export type ChatbotAdService = {
  /**
   * The next ad's card at `now`, its impression counted on the KST day of `now`; null when no
   * served chatbot ad can make a card (none in period, no image, or no PUBLIC_BASE_URL for an image
   * path). Reads the database at most once per CHATBOT_ADS_CACHE_MS; the impression is counted in
   * memory until the next flush. An ad's card is the same object in every skill response until the list is
   * read again or an ad's period starts or ends, so the skill responses that carry it can be shared (ADR 024).
   */
  next(now: Date): Promise<BasicCard | null>;
  /**
   * Writes the impressions counted so far (addImpressions, one upsert per ad and KST day; an ad
   * deleted meanwhile counts nothing). Never rejects: a count that fails to write is logged and
   * kept for the next flush.
   */
  flush(): Promise<void>;
  /**
   * Reads the served chatbot ads now (or joins the read under way) at `now`, resolving when it has
   * ended; never rejects (a failed read keeps the last list and is logged). The runtime warms the
   * list with it at start; `next` calls it in the background when the list is older than
   * CHATBOT_ADS_CACHE_MS.
   */
  refresh(now: Date): Promise<void>;
};

/** The rotation of an api composed without one (composeApi in tests): no card, nothing to write. */
export const noChatbotAds: ChatbotAdService = {
  next: async () => null,
  flush: async () => undefined,
  refresh: async () => undefined,
};

/**
 * The card of `ad`: title, the ad message (`content`) as description cut to Kakao's limit, the
 * image as an absolute https URL (already one, or `publicBaseUrl` + its path), and a button to the
 * web's click-counting redirect `${publicBaseUrl}/ads/click/${id}` (app/routes/ads.click.$id.ts)
 * when the ad has an http(s) redirectUrl. null when no absolute https image URL can be made.
 */
export function adCard(ad: ServedAd, publicBaseUrl: string | undefined): BasicCard | null {
  const image = ad.imageUrl ?? '';
  const imageUrl = image.startsWith('https://')
    ? image
    : publicBaseUrl && image.startsWith('/')
      ? `${publicBaseUrl}${image}`
      : null;
  if (!imageUrl) return null;
  const title = ad.title?.trim();
  const description = ad.content?.trim();
  return {
    ...(title ? { title: clipText(title, KAKAO_LIMITS.basicCardTitle) } : {}),
    ...(description ? { description: clipText(description, KAKAO_LIMITS.basicCardDescription) } : {}),
    thumbnail: {
      imageUrl,
      ...(title ? { altText: clipText(title, KAKAO_LIMITS.thumbnailAltText) } : {}),
      fixedRatio: false,
    },
    ...(publicBaseUrl && ad.redirectUrl && isHttpUrl(ad.redirectUrl)
      ? { buttons: [{ action: 'webLink', label: AD_BUTTON_LABEL, webLinkUrl: `${publicBaseUrl}/ads/click/${ad.id}` }] }
      : {}),
  } satisfies BasicCard;
}

/**
 * The ad rotation: a cursor over the served chatbot ads that can make a card, in the admins' order
 * (listServedAds: position, then id), advancing by one per card shown, so each ad is shown in turn
 * whatever the list's length. The list is read again at most every CHATBOT_ADS_CACHE_MS, in the
 * background (an edit or reorder shows within that time plus one skill response; a failed read keeps the
 * last list and is logged), and filtered to the ads in period at each `now`. The cards are made once
 * per list read and per start or end of an ad's period, not per skill response. "No card" and its end
 * are logged once per change.
 * @param options.publicBaseUrl PUBLIC_BASE_URL, the https origin of the site; absent → only ads whose image URL is already absolute https.
 */
export function createChatbotAdService(options: { db: Db; logger: Logger; publicBaseUrl?: string }): ChatbotAdService {
  const { db, logger, publicBaseUrl } = options;
  // The list last read (null until the first read ends), when the last read started, the read under way.
  let list: ServedAd[] | null = null;
  let readAtMs = Number.NEGATIVE_INFINITY;
  let reading: Promise<void> | null = null;
  let cursor = 0;
  let cardless: boolean | null = null;
  // The cards of `list` in period from `fromMs` until `untilMs` (the nearest start or end of a period either side).
  let rotation: { list: ServedAd[]; fromMs: number; untilMs: number; cards: { id: number; card: BasicCard }[] } | null =
    null;
  // The KST day of the second `second`: a day starts on a whole second, so one look-up serves that second.
  let day = { second: Number.NaN, key: '' };
  const reads = failureLog(logger, {
    failing: '[skill] could not read the chatbot ads; answering with the last list read.',
    recovered: '[skill] reading the chatbot ads works again.',
    level: 'error',
  });
  const writes = failureLog(logger, {
    failing: '[skill] could not write some chatbot ad impressions; they are kept for the next flush.',
    recovered: '[skill] writing the chatbot ad impressions works again.',
    level: 'error',
  });
  // Impressions not yet written, by ad id and KST day ("id day").
  const unwritten = new Map<string, { id: number; day: string; count: number }>();
  const count = (id: number, day: string, n: number) => {
    const key = `${id} ${day}`;
    const entry = unwritten.get(key);
    if (entry) entry.count += n;
    else unwritten.set(key, { id, day, count: n });
  };

  const refresh = (now: Date): Promise<void> => {
    readAtMs = now.getTime();
    reading ??= listServedAds(db, 'kakao', now)
      .then(
        (ads) => {
          list = ads;
          reads.ok();
        },
        (error: unknown) => {
          list ??= NO_ADS;
          reads.fail(error);
        },
      )
      .finally(() => {
        reading = null;
      });
    return reading;
  };

  // Writes the counts taken so far; never rejects (what fails is counted again and logged).
  const writeUnwritten = async () => {
    const entries = [...unwritten.values()];
    unwritten.clear();
    let failure: unknown = null;
    for (const { id, day, count: n } of entries) {
      try {
        await addImpressions(db, id, day, n);
      } catch (error) {
        count(id, day, n);
        failure = error;
      }
    }
    if (failure) writes.fail(failure);
    else writes.ok();
  };
  let flushing = Promise.resolve();

  // Stale while revalidating: only the first read is waited for; later ones replace the list when
  // they end, so a skill response never waits for the database (nor fails with it) once a list is known.
  const served = async (now: Date): Promise<ServedAd[]> => {
    if (now.getTime() - readAtMs >= CHATBOT_ADS_CACHE_MS || now.getTime() < readAtMs) void refresh(now);
    if (list === null) await reading;
    return list ?? NO_ADS;
  };

  // The cards of the ads of `ads` in period at `nowMs`, made again only for another list or past a period's edge.
  const cardsAt = (ads: ServedAd[], nowMs: number) => {
    if (rotation?.list === ads && rotation.fromMs <= nowMs && nowMs < rotation.untilMs) return rotation.cards;
    let fromMs = Number.NEGATIVE_INFINITY;
    let untilMs = Number.POSITIVE_INFINITY;
    for (const ad of ads) {
      for (const edge of [ad.startsAt.getTime(), ad.endsAt.getTime()]) {
        if (edge <= nowMs) fromMs = Math.max(fromMs, edge);
        else untilMs = Math.min(untilMs, edge);
      }
    }
    const cards = ads.flatMap((ad) => {
      const card = ad.startsAt.getTime() <= nowMs && nowMs < ad.endsAt.getTime() ? adCard(ad, publicBaseUrl) : null;
      return card ? [{ id: ad.id, card }] : [];
    });
    if ((cards.length === 0) !== cardless) {
      cardless = cards.length === 0;
      if (cardless)
        logger.info(
          `[skill] no chatbot ad card: no in-period chatbot ad${publicBaseUrl ? '' : ' with an https image URL (PUBLIC_BASE_URL is not set)'}.`,
        );
      else logger.info(`[skill] chatbot ad cards: ${cards.length} in rotation.`);
    }
    rotation = { list: ads, fromMs, untilMs, cards };
    return cards;
  };

  const dayOf = (now: Date) => {
    const second = Math.floor(now.getTime() / 1000);
    if (day.second !== second) day = { second, key: formatKstDate(now) };
    return day.key;
  };

  return {
    next: async (now) => {
      const cards = cardsAt(await served(now), now.getTime());
      if (cards.length === 0) return null;
      const { id, card } = cards[cursor % cards.length];
      cursor = (cursor + 1) % cards.length;
      count(id, dayOf(now), 1);
      return card;
    },
    // Flushes run one after another, so a stop's flush ends after the timer's (runtime close).
    flush: () => (flushing = flushing.then(writeUnwritten)),
    refresh,
  };
}
