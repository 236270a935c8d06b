/**
 * The skill responses as sent, shared (ADR 024): a skill response depends only on the question, the live
 * view (api/bus/live-view.ts: one per second, feed state and routes in use) and the ad card shown,
 * so its JSON is built once per live view, question and card, and every request asking the same
 * meanwhile gets the same string. What stays per request is which question it asks (intentOf) and
 * the ad rotation's turn with its impression (api/skill/ads.ts).
 */
import type { BasicCard, SkillResponse } from '../../contract/skill';
import type { LiveView, LiveViewService } from '../bus/live-view';
import type { ChatbotAdService } from './ads';
import { skillResponseFor } from './responses';
import type { SkillIntent } from './intent';

export type SkillResponses = {
  /**
   * The SkillResponse (version 2.0) to `intent` now as JSON: the same as `JSON.stringify(skillResponseFor(…))`
   * on the current live view and the rotation's next card, whose impression it counts.
   */
  jsonFor(intent: SkillIntent): Promise<string>;
};

/** One key per distinct question: "up", "route 1150", "lastBus", "lastBus 1150"… */
const keyOf = (intent: SkillIntent) =>
  'routeNo' in intent && intent.routeNo ? `${intent.kind} ${intent.routeNo}` : intent.kind;

/**
 * @param build the skill response to a question on a live view with a card (skillResponseFor; tests count its calls).
 */
export function createSkillResponses(deps: {
  liveView: Pick<LiveViewService, 'current'>;
  chatbotAds: Pick<ChatbotAdService, 'next'>;
  build?: (intent: SkillIntent, facts: LiveView, adCard: BasicCard | null) => SkillResponse;
}): SkillResponses {
  const { liveView, chatbotAds, build = skillResponseFor } = deps;
  // The skill responses built on `live`, by question, then by card (null: none). Dropped with its live view.
  let built: { live: LiveView; responses: Map<string, Map<BasicCard | null, string>> } | null = null;
  return {
    jsonFor: async (intent) => {
      const live = await liveView.current();
      const card = await chatbotAds.next(live.now);
      if (built?.live !== live) built = { live, responses: new Map() };
      const key = keyOf(intent);
      let byCard = built.responses.get(key);
      if (!byCard) built.responses.set(key, (byCard = new Map()));
      let json = byCard.get(card);
      if (json === undefined) byCard.set(card, (json = JSON.stringify(build(intent, live, card))));
      return json;
    },
  };
}
