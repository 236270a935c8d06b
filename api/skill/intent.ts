/**
 * What a chatbot user asks: the utterances a student types and their variants, or the
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
  /** The last departure of today (막차) of each route, or of `routeNo` only. */
  | { kind: 'lastBus'; routeNo?: RouteNo }
  | { kind: 'help' };

const isRouteNo = (value: string): value is RouteNo => (ROUTE_NOS as readonly string[]).includes(value);

/**
 * Keyword rules in order, read on the utterance without spaces ("막 차" is 막차): the first that
 * matches wins. Campus-bound words come before the down words, so "학교 가는 버스" is up while
 * "집 가는 버스" and "강남 가는 버스" are down; the bare "버스" is up.
 */
const KEYWORDS: [RegExp, SkillIntent][] = [
  [/막차|lastbus/, { kind: 'lastBus' }],
  [/시간표|timetable|schedule/, { kind: 'timetable' }],
  [/상행|등교|(학교|외대|캠퍼스|기숙사)(가는|로|행|까지)/, { kind: 'up' }],
  [/하행|하교|나가|출발|내려가|떠나|가는|집|역으로|역까지/, { kind: 'down' }],
  [/오는|도착|버스|bus|🚌/u, { kind: 'up' }],
];

/** Values of a `direction` parameter, as an Open Builder entity may send them. */
const DIRECTIONS: Record<string, SkillIntent> = {
  up: { kind: 'up' },
  상행: { kind: 'up' },
  down: { kind: 'down' },
  하행: { kind: 'down' },
};

/** How much of an utterance is read (characters): a question is a few words; the rest is ignored. */
export const UTTERANCE_READ_MAX = 200;

const TRAILING_PUNCTUATION = new Set([' ', '?', '!', '.', '~', ',', '…']);

/**
 * The utterance as the rules read it: its first UTTERANCE_READ_MAX characters, NFKC (full-width
 * digits and letters become ASCII), lower case, runs of spaces as one, without trailing punctuation
 * (?, !, ~, ., ,, …). A trailing 번 stays: route numbers are read as the digits. Linear in the
 * length (no backtracking pattern).
 */
export function normaliseUtterance(utterance: string): string {
  const text = utterance.slice(0, UTTERANCE_READ_MAX).normalize('NFKC').toLowerCase().replace(/\s+/g, ' ').trim();
  let end = text.length;
  while (end > 0 && TRAILING_PUNCTUATION.has(text[end - 1])) end -= 1;
  return text.slice(0, end);
}

/**
 * The route numbers asked about: numbers of three or more digits, or followed by 번 ("1150",
 * "1150번", "5번"); "8시" and "10분 뒤" are times, not routes.
 */
function routeNumbers(text: string): string[] {
  return [...text.matchAll(/(\d+)\s*(번)?/g)]
    .filter(([, digits, beon]) => beon !== undefined || digits.length >= 3)
    .map(([, digits]) => digits);
}

/**
 * The question asked. The block's `params` win when they name one: `routeNo` (a route of ours,
 * "1150", "1150번") gives route, else `direction` (up/down/상행/하행) gives up or down. Otherwise
 * the utterance: a route number of ours ("1150", "1150번 시간표", "1150 언제 와") asks for that
 * route, or for its last bus with 막차 ("1150 막차"); a route number that is not ours is help;
 * else the first keyword rule (KEYWORDS); else help.
 */
export function intentOf(utterance: string, params: Readonly<Record<string, string>> = {}): SkillIntent {
  const paramRoute = params.routeNo === undefined ? undefined : routeNumbers(normaliseUtterance(params.routeNo))[0];
  if (paramRoute !== undefined && isRouteNo(paramRoute)) return { kind: 'route', routeNo: paramRoute };
  const direction = params.direction === undefined ? undefined : DIRECTIONS[normaliseUtterance(params.direction)];
  if (direction) return direction;

  const text = normaliseUtterance(utterance);
  const keyword = KEYWORDS.find(([pattern]) => pattern.test(text.replace(/ /g, '')))?.[1];
  const numbers = routeNumbers(text);
  const routeNo = numbers.find(isRouteNo);
  if (routeNo) return keyword?.kind === 'lastBus' ? { kind: 'lastBus', routeNo } : { kind: 'route', routeNo };
  if (numbers.length > 0) return { kind: 'help' };
  return keyword ?? { kind: 'help' };
}
