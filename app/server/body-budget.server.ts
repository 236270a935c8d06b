/**
 * The memory the server's request bodies may take at once (docs/deploy.md §Request bodies and
 * origins), counted in bytes as they arrive, never by what a request declares: a connection that
 * declares a large body and sends nothing holds nothing. Three pools, so that images held cannot
 * starve the small writes (inquiries, sign-in, impressions, every admin action), nor anyone the
 * chatbot skill:
 * - `image`: the image forms' multipart bodies (app/server/body-limit.server.ts `pool`);
 * - `text`: every other body, but the skill's;
 * - `skill`: the chatbot skill's, admitted with its secret (app/server/skill.server.ts).
 * Within the image and text pools each client has a share, by its address key (an IPv4 address, an
 * IPv6 /64) and a larger one by its network (an IPv4 /24, an IPv6 /48, as the api's limits key
 * them: lib/client-address.ts), so one client with many connections, or many addresses of one
 * network, cannot take a pool either. A body that would go past its pool or a share is refused
 * (app/server/request-bodies.server.ts answers 503 with Retry-After); what it held is given back when its answer ends.
 */
import type { BodyLimit } from '~/server/body-limit.server';

const MIB = 1024 * 1024;

/** The pools (BODY_POOLS). */
export type BodyPoolName = BodyLimit['pool'] | 'skill';

/** A pool's size and, when it has them, one address's and one network's shares of it, in bytes. */
export type BodyPool = { totalBytes: number; perAddressBytes?: number; perNetworkBytes?: number };

/**
 * The pools: 64 MiB in all. The image pool is 48 MiB (nine images at their 5.25 MB cap), of which
 * one address may hold 16 MiB (three uploads at once: a few shops behind one campus address) and
 * one network 24 MiB. The text pool is 12 MiB, of which one address may hold 1 MiB (35 sign-ins at
 * their cap, hundreds of inquiries as people write them) and one network 4 MiB. The skill's pool is
 * 4 MiB: its 1,024 places at 4 KB, twice a real call's size, with no shares (Kakao calls from a
 * few addresses).
 */
export const BODY_POOLS: Record<BodyPoolName, BodyPool> = {
  image: { totalBytes: 48 * MIB, perAddressBytes: 16 * MIB, perNetworkBytes: 24 * MIB },
  text: { totalBytes: 12 * MIB, perAddressBytes: 1 * MIB, perNetworkBytes: 4 * MIB },
  skill: { totalBytes: 4 * MIB },
};

/** Whose shares a body counts against: a client's address key and network key (lib/client-address.ts). */
export type BodyClient = { address: string; network: string };

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
  /** A hold on `pool` for one body of `client` (its shares count only in a pool that has them). */
  open(pool: BodyPoolName, client: BodyClient): BodyHold;
  /** The bytes held now in each pool (for tests and measurements). */
  held(): Record<BodyPoolName, number>;
};

export function createBodyBudget(pools: Record<BodyPoolName, BodyPool> = BODY_POOLS): BodyBudget {
  const held: Record<BodyPoolName, number> = { image: 0, text: 0, skill: 0 };
  /** Bytes held per `${pool} ${address or network key}`; an entry goes once it holds nothing. */
  const byShare = new Map<string, number>();
  return {
    open(pool, client) {
      const { totalBytes, perAddressBytes = Infinity, perNetworkBytes = Infinity } = pools[pool];
      const shares = [
        { key: `${pool} ${client.address}`, most: perAddressBytes },
        { key: `${pool} ${client.network}`, most: perNetworkBytes },
        // (A client of no IP address is `unknown` by both keys: one share.)
      ].filter((share, index, all) => share.most < Infinity && all.findIndex(({ key }) => key === share.key) === index);
      let mine = 0;
      const fits = (bytes: number) =>
        held[pool] + bytes <= totalBytes && shares.every(({ key, most }) => (byShare.get(key) ?? 0) + bytes <= most);
      const add = (bytes: number) => {
        held[pool] += bytes;
        mine += bytes;
        for (const { key } of shares) {
          const now = (byShare.get(key) ?? 0) + bytes;
          if (now === 0) byShare.delete(key);
          else byShare.set(key, now);
        }
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
