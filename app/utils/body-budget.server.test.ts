import { BODY_POOLS, createBodyBudget } from '~/utils/body-budget.server';

const pools = { image: { totalBytes: 100, perClientBytes: 40 }, text: { totalBytes: 10, perClientBytes: 4 } };

describe('createBodyBudget', () => {
  it('counts what is taken, not what is declared: a hold that took nothing holds nothing', () => {
    const budget = createBodyBudget(pools);
    const idle = Array.from({ length: 1000 }, () => budget.open('image', '203.0.113.1'));
    expect(idle.every((hold) => hold.fits(40))).toBe(true);
    expect(budget.held()).toEqual({ image: 0, text: 0 });
  });

  it("keeps one client within its share of a pool, and the others' room intact", () => {
    const budget = createBodyBudget(pools);
    const first = budget.open('image', 'a');
    const second = budget.open('image', 'a');
    expect(first.take(30)).toBe(true);
    expect(second.take(11)).toBe(false); // 41 > the client's 40
    expect(second.take(10)).toBe(true);
    expect(budget.open('image', 'b').take(40)).toBe(true);
    expect(budget.held().image).toBe(80);
  });

  it('keeps the pools apart: a full image pool leaves the text pool whole', () => {
    const budget = createBodyBudget(pools);
    for (const client of ['a', 'b']) expect(budget.open('image', client).take(40)).toBe(true);
    expect(budget.open('image', 'c').take(21)).toBe(false); // 101 > the pool's 100
    expect(budget.open('text', 'c').take(4)).toBe(true);
  });

  it('gives back what a hold took once, when it is released', () => {
    const budget = createBodyBudget(pools);
    const hold = budget.open('text', 'a');
    expect(hold.take(3)).toBe(true);
    expect(hold.take(1)).toBe(true);
    hold.release();
    hold.release();
    expect(budget.held().text).toBe(0);
    expect(budget.open('text', 'a').take(4)).toBe(true);
  });

  it('holds a body of no client (already vouched for) to the pool alone', () => {
    const budget = createBodyBudget(pools);
    expect(budget.open('text', null).take(10)).toBe(true);
    expect(budget.open('text', null).take(1)).toBe(false);
  });

  it('gives a client room for three image uploads at their cap, and 64 MiB in all', () => {
    expect(BODY_POOLS.image.perClientBytes / (5 * 1024 * 1024 + 256 * 1024)).toBeGreaterThanOrEqual(3);
    expect(BODY_POOLS.image.totalBytes + BODY_POOLS.text.totalBytes).toBe(64 * 1024 * 1024);
  });
});
