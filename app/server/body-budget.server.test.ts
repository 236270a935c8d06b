import { BODY_POOLS, createBodyBudget } from '~/server/body-budget.server';

const pools = {
  image: { totalBytes: 100, perAddressBytes: 40, perNetworkBytes: 60 },
  text: { totalBytes: 10, perAddressBytes: 4, perNetworkBytes: 6 },
  skill: { totalBytes: 5 },
};
/** A client at `address` of network `network`. */
const at = (address: string, network = `${address}/net`) => ({ address, network });

describe('createBodyBudget', () => {
  it('counts what is taken, not what is declared: a hold that took nothing holds nothing', () => {
    const budget = createBodyBudget(pools);
    const idle = Array.from({ length: 1000 }, () => budget.open('image', at('203.0.113.1')));
    expect(idle.every((hold) => hold.fits(40))).toBe(true);
    expect(budget.held()).toEqual({ image: 0, text: 0, skill: 0 });
  });

  it("keeps one address within its share of a pool, and the others' room intact", () => {
    const budget = createBodyBudget(pools);
    const first = budget.open('image', at('a'));
    const second = budget.open('image', at('a'));
    expect(first.take(30)).toBe(true);
    expect(second.take(11)).toBe(false); // 41 > the address's 40
    expect(second.take(10)).toBe(true);
    expect(budget.open('image', at('b')).take(40)).toBe(true);
    expect(budget.held().image).toBe(80);
  });

  it('keeps the addresses of one network within its share together', () => {
    const budget = createBodyBudget(pools);
    expect(budget.open('text', at('a', 'n')).take(4)).toBe(true);
    expect(budget.open('text', at('b', 'n')).take(3)).toBe(false); // 7 > the network's 6
    expect(budget.open('text', at('b', 'n')).take(2)).toBe(true);
    expect(budget.open('text', at('c', 'm')).take(4)).toBe(true);
  });

  it('counts a client of no address (`unknown` by both keys) once against its share', () => {
    const budget = createBodyBudget(pools);
    expect(budget.open('text', at('unknown', 'unknown')).take(4)).toBe(true);
    expect(budget.held().text).toBe(4);
  });

  it('keeps the pools apart: full image and text pools leave the skill its own', () => {
    const budget = createBodyBudget(pools);
    for (const client of ['a', 'b']) expect(budget.open('image', at(client)).take(40)).toBe(true);
    expect(budget.open('image', at('c')).take(21)).toBe(false); // 101 > the pool's 100
    expect(budget.open('text', at('c')).take(4)).toBe(true);
    for (const client of ['d', 'e']) expect(budget.open('text', at(client)).take(3)).toBe(true);
    expect(budget.open('text', at('f')).take(1)).toBe(false);
    // The skill's pool has no shares: one caller (Kakao's servers) may take it all.
    expect(budget.open('skill', at('kakao')).take(5)).toBe(true);
    expect(budget.open('skill', at('kakao')).take(1)).toBe(false);
  });

  it('gives back what a hold took once, when it is released', () => {
    const budget = createBodyBudget(pools);
    const hold = budget.open('text', at('a'));
    expect(hold.take(3)).toBe(true);
    expect(hold.take(1)).toBe(true);
    hold.release();
    hold.release();
    expect(budget.held().text).toBe(0);
    expect(budget.open('text', at('a')).take(4)).toBe(true);
  });

  it('gives an address room for three image uploads at their cap, and 64 MiB in all', () => {
    expect(BODY_POOLS.image.perAddressBytes! / (5 * 1024 * 1024 + 256 * 1024)).toBeGreaterThanOrEqual(3);
    const total = Object.values(BODY_POOLS).reduce((sum, pool) => sum + pool.totalBytes, 0);
    expect(total).toBe(64 * 1024 * 1024);
  });
});
