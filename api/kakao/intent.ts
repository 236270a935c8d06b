/**
 * What a chatbot user asks (issue 9 §2): the utterances a student types and their variants, or the
 * block's action parameters when Open Builder sends them.
 */
import { ROUTE_NOS, type RouteNo } from '../../contract/transit';

export type SkillIntent =
  /** Up arrivals at the campus crossroads, per route. */
  | { kind: 'up' }
  /** The next estimated departure from campus, per route. */
  | { kind: 'down' }
  /** The route's estimated departures for the rest of today. */
  | { kind: 'route'; routeNo: RouteNo }
  /** Today's remaining estimated departures of every route, short. */
  | { kind: 'timetable' }
  /** Each route's last departure of today (막차). */
  | { kind: 'lastBus' }
  | { kind: 'help' };

const isRouteNo = (value: string): value is RouteNo => (ROUTE_NOS as readonly string[]).includes(value);

/** Keyword rules in order: the first that matches wins ("나가는 버스" is down before "버스" is up). */
const KEYWORDS: [RegExp, SkillIntent][] = [
  [/막차/, { kind: 'lastBus' }],
  [/시간표/, { kind: 'timetable' }],
  [/하행|나가는|나가|출발|내려가/, { kind: 'down' }],
  [/상행|학교\s?가는|학교로|오는|도착|버스/, { kind: 'up' }],
];

/** Values of a `direction` parameter, as an Open Builder entity may send them. */
const DIRECTIONS: Record<string, SkillIntent> = {
  up: { kind: 'up' },
  상행: { kind: 'up' },
  down: { kind: 'down' },
  하행: { kind: 'down' },
};

/**
 * The utterance as the rules read it: NFKC (full-width digits and letters become ASCII), lower
 * case, runs of spaces as one, without trailing punctuation (?, !, ~, ., …). A trailing 번 stays:
 * route numbers are read as the digits.
 */
export function normaliseUtterance(utterance: string): string {
  return utterance
    .normalize('NFKC')
    .toLowerCase()
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/[\s?!.~,…]+$/u, '');
}

/**
 * The question asked. The block's `params` win when they name one: `routeNo` (a route of ours, "1150"
 * or "1150번") gives route, else `direction` (up/down/상행/하행) gives up or down. Otherwise the
 * utterance: a route number of ours anywhere ("1150", "1150번", "1150 출발", "1150번 시간표") asks
 * for that route; else the first keyword rule (막차, 시간표, down words, up words); else help.
 * A number that is not one of our routes is help.
 */
export function intentOf(utterance: string, params: Readonly<Record<string, string>> = {}): SkillIntent {
  const paramRoute = params.routeNo === undefined ? '' : normaliseUtterance(params.routeNo).replace(/번$/, '');
  if (isRouteNo(paramRoute)) return { kind: 'route', routeNo: paramRoute };
  const direction = params.direction === undefined ? undefined : DIRECTIONS[normaliseUtterance(params.direction)];
  if (direction) return direction;

  const text = normaliseUtterance(utterance);
  const numbers: string[] = text.match(/\d+/g) ?? [];
  const routeNo = numbers.find(isRouteNo);
  if (routeNo) return { kind: 'route', routeNo };
  if (numbers.length > 0) return { kind: 'help' };
  return KEYWORDS.find(([pattern]) => pattern.test(text))?.[1] ?? { kind: 'help' };
}
