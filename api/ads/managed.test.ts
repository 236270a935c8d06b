import { testDatabaseFor, testDatabaseKinds } from '../../tests/setup/db';
import { adRowsIn, at, DAY_MS, NOW } from './ad-rows.fixture';
import { listServedAds } from './managed';

describe.each(testDatabaseKinds)('managed ads on %s', (kind) => {
  const database = testDatabaseFor(kind);
  const db = () => database().db;
  const { insertAd } = adRowsIn(db);

  describe('listServedAds', () => {
    it('lists the in-period ads of the type in position order', async () => {
      await insertAd({ title: 'third', position: 7 });
      await insertAd({ title: 'first', position: 1 });
      await insertAd({ title: 'starts now', position: 3, startsAt: NOW });
      await insertAd({ title: 'not yet', position: 0, startsAt: at(1) });
      await insertAd({ title: 'ended now', position: 2, endsAt: NOW });
      await insertAd({ title: 'ended', position: 4, startsAt: at(-3 * DAY_MS), endsAt: at(-DAY_MS) });
      await insertAd({ title: 'kakao', type: 'kakao', position: 5 });

      const served = await listServedAds(db(), 'web', NOW);
      expect(served.map((ad) => ad.title)).toEqual(['first', 'starts now', 'third']);
      expect((await listServedAds(db(), 'kakao', NOW)).map((ad) => ad.title)).toEqual(['kakao']);
      expect((await listServedAds(db(), 'web', at(2 * DAY_MS))).map((ad) => ad.title)).toEqual([]);
    });
  });
});
