/**
 * The memory the server's request bodies may take at once (docs/deploy.md §Request bodies and
 * origins), counted in bytes as they arrive, never by what a request declares: a connection that
 * declares a large body and sends nothing holds nothing. Two pools, so that images held cannot
 * starve the small writes (inquiries, sign-in, the chatbot skill, impressions, every admin action):
 * - `image`: the image forms' multipart bodies (app/utils/body-limit.server.ts `pool`);
 * - `text`: every other body.
 * Within a pool each client (its address key: an IPv4 address, an IPv6 /64) has a share, so one
 * client with many connections cannot take a pool either. A body that would go past its pool or
 * its share is refused (server.ts answers 503 with Retry-After); what it held is given back when
 * its answer ends.
 */
import type { BodyLimit } from '~/utils/body-limit.server';

const MIB = 1024 * 1024;

/** A pool's size and one client's share of it, in bytes. */
export type BodyPool = { totalBytes: number; perClientBytes: number };

/**
 * The pools: 64 MiB in all. The image pool is 48 MiB (nine images at their 5.25 MB cap), of which
 * one client may hold 16 MiB (three uploads at once: a few shops behind one campus address). The
 * text pool is 16 MiB, of which one client may hold 1 MiB (25 inquiries at their cap, or hundreds
 * of sign-ins, at once).
 */
export const BODY_POOLS: Record<BodyLimit['pool'], BodyPool> = {
  image: { totalBytes: 48 * MIB, perClientBytes: 16 * MIB },
  text: { totalBytes: 16 * MIB, perClientBytes: 1 * MIB },
};

/** One body's claim on the budget: what it holds, taken chunk by chunk. */
export type BodyHold = {
  /** Whether `bytes` more would fit now, in the pool and in the client's share (nothing is taken). */
  fits(bytes: number): boolean;
  /** Takes `bytes` more when they fit; false (nothing taken) when they do not. */
  take(bytes: number): boolean;
  /** Gives back everything taken; later calls do nothing. */
  release(): void;
};

export type BodyBudget = {
  /**
   * A hold on `pool` for one body of `client` (its address key), or of no client's share
   * (`client` null: a caller already vouched for, the chatbot skill with its secret).
   */
  open(pool: BodyLimit['pool'], client: string | null): BodyHold;
  /** The bytes held now in each pool (for tests and measurements). */
  held(): Record<BodyLimit['pool'], number>;
};

export function createBodyBudget(pools: Record<BodyLimit['pool'], BodyPool> = BODY_POOLS): BodyBudget {
  const held = { image: 0, text: 0 };
  /** Bytes held per `${pool} ${client}`; an entry goes once its client holds nothing. */
  const byClient = new Map<string, number>();
  return {
    open(pool, client) {
      const { totalBytes, perClientBytes } = pools[pool];
      const key = client === null ? null : `${pool} ${client}`;
      let mine = 0;
      const fits = (bytes: number) =>
        held[pool] + bytes <= totalBytes && (key === null || (byClient.get(key) ?? 0) + bytes <= perClientBytes);
      const add = (bytes: number) => {
        held[pool] += bytes;
        mine += bytes;
        if (key === null) return;
        const now = (byClient.get(key) ?? 0) + bytes;
        if (now === 0) byClient.delete(key);
        else byClient.set(key, now);
      };
      return {
        fits,
        take(bytes) {
          if (!fits(bytes)) return false;
          add(bytes);
          return true;
        },
        release() {
          add(-mine);
        },
      };
    },
    held: () => ({ ...held }),
  };
}
