import type { BasicCard } from '../../contract/skill';
import { snapshotAt } from '../../tests/setup/fakes';
import type { LiveView } from '../bus/live-view';
import { DEFAULT_TRANSIT_IDS } from '../bus/feed/transit-config';
import { timeLeftView } from '../bus/time-left-view';
import { skillResponseFor } from './responses';
import type { SkillIntent } from './intent';
import { createSkillResponses } from './shared-responses';

// Monday 2026-11-23 (a weekday), 08:00 KST.
const NOW = new Date('2026-11-23T08:00:00+09:00');

/** The live view of one second: 1150 3 minutes (2 stops) away, 1117 1 minute (1 stop). */
function liveAt(now: Date): LiveView {
  const snapshot = snapshotAt(NOW, [
    ['1150', 170, 2],
    ['1117', 20, 1],
  ]);
  const state = { source: 'gbis' as const, snapshot, lastError: null, failingSince: null, nextPollAt: null };
  return { now, view: timeLeftView(state, now, []), predictions: [], routes: DEFAULT_TRANSIT_IDS.routes };
}

const card = (title: string): BasicCard => ({
  title,
  thumbnail: { imageUrl: `https://bus.example.com/images/${title}.png`, fixedRatio: false },
});

/** The shared skill responses over `live` (changed by the test) and a rotation showing `cards` in turn, counting each shown. */
function setup(cards: BasicCard[] = []) {
  const state = { live: liveAt(NOW), shown: 0 };
  const build = vi.fn(skillResponseFor);
  const skillResponses = createSkillResponses({
    liveView: { current: async () => state.live },
    chatbotAds: {
      next: async () => (cards.length === 0 ? null : cards[state.shown++ % cards.length]),
    },
    build,
  });
  return { state, build, skillResponses };
}

describe('createSkillResponses', () => {
  it('builds a question’s answer once per live view and sends every request the same JSON', async () => {
    const { state, build, skillResponses } = setup();
    const sent = await Promise.all(Array.from({ length: 50 }, () => skillResponses.jsonFor({ kind: 'up' })));
    expect(build).toHaveBeenCalledTimes(1);
    expect(new Set(sent)).toEqual(new Set([JSON.stringify(skillResponseFor({ kind: 'up' }, state.live, null))]));
  });

  it('builds once per question and card, counting every card shown, and responds as skillResponseFor does', async () => {
    const cards = [card('cafe'), card('books')];
    const { state, build, skillResponses } = setup(cards);
    const questions: SkillIntent[] = [
      { kind: 'up' },
      { kind: 'route', routeNo: '1150' },
      { kind: 'route', routeNo: '1117' },
      { kind: 'lastBus' },
      { kind: 'lastBus', routeNo: '1150' },
    ];
    for (let round = 0; round < 4; round += 1) {
      for (const [index, question] of questions.entries()) {
        const shown = cards[(round * questions.length + index) % cards.length];
        expect(await skillResponses.jsonFor(question)).toBe(
          JSON.stringify(skillResponseFor(question, state.live, shown)),
        );
      }
    }
    expect(state.shown).toBe(4 * questions.length);
    expect(build).toHaveBeenCalledTimes(questions.length * cards.length);
  });

  it('builds again on the next live view (the next second, or a new snapshot)', async () => {
    const { state, build, skillResponses } = setup();
    await skillResponses.jsonFor({ kind: 'help' });
    state.live = liveAt(new Date(NOW.getTime() + 1000));
    const next = await skillResponses.jsonFor({ kind: 'help' });
    await skillResponses.jsonFor({ kind: 'help' });
    expect(build).toHaveBeenCalledTimes(2);
    expect(next).toBe(JSON.stringify(skillResponseFor({ kind: 'help' }, state.live, null)));
  });
});
