/**
 * The skill responses, built from memory only: the timeLeft view of the feed's
 * latest state (api/bus/time-left-view.ts), today's predictions (the prediction service) and the
 * timetables in use (the live view's routes: env > saved setup > the defaults of
 * api/bus/feed/transit-config.ts). Pure: the same facts give the same skill response.
 */
import { type UpRoute } from '../../contract/bus';
import {
  clipText,
  KAKAO_LIMITS,
  type BasicCard,
  type QuickReply,
  type SkillOutput,
  type SkillResponse,
} from '../../contract/skill';
import { DAY_TYPE_NAMES, ROUTE_NOS, STOP_NAMES } from '../../contract/transit';
import type { LiveView } from '../bus/live-view';
import { lastDeparture, timetableDeparture } from '../bus/time-left-view';
import { addServiceDays, dayType, serviceClock } from '../time';
import { formatKstTime } from '../../contract/kst';
import type { SkillIntent } from './intent';
import { groupRoutes } from '../../contract/time-left-groups';

/**
 * What a skill response is built from, as of `now`: the live view (api/bus/live-view.ts), whose `view.feed`
 * tells stale and in-service, today's predictions per route, and the routes in use with their
 * timetables (route order).
 */
export type SkillFacts = LiveView;

/** The timetable's skill response lists this many next departures per route, then "외 N회". */
const TIMETABLE_TIMES_PER_ROUTE = 5;

/** The quick replies, one per question, each sending its own label as the next utterance. */
const QUESTIONS: { label: string; intent: SkillIntent }[] = [
  { label: '학교 가는 버스', intent: { kind: 'up' } },
  { label: '나가는 버스', intent: { kind: 'down' } },
  { label: '시간표', intent: { kind: 'timetable' } },
  { label: '막차', intent: { kind: 'lastBus' } },
  ...ROUTE_NOS.map((routeNo) => ({ label: `${routeNo}번`, intent: { kind: 'route', routeNo } as const })),
];

const HELP_TEXT = [
  '외대 버스 챗봇이에요. 이렇게 물어보세요.',
  '• 버스, 상행: 학교 가는 버스 도착 정보',
  '• 하행, 출발: 학교에서 나가는 버스',
  '• 1150: 노선의 오늘 남은 출발 예정',
  '• 시간표: 모든 노선의 출발 예정',
  '• 막차: 노선별 막차 시각',
].join('\n');

/** "3시간 20분" / "20분" for a number of seconds (rounded up to the minute). */
function duration(seconds: number): string {
  const minutes = Math.ceil(seconds / 60);
  const hours = Math.floor(minutes / 60);
  return hours > 0 ? `${hours}시간${minutes % 60 ? ` ${minutes % 60}분` : ''}` : `${minutes}분`;
}

/** "3분 후 · 2정거장 전", "곧 도착 · 1정거장 전". */
const arrivalText = (route: UpRoute) =>
  `${route.time > 0 ? `${route.time}분 후` : '곧 도착'} · ${route.location}정거장 전`;

/** The stale-snapshot warning, or null when the snapshot is fresh (contract FeedStatus.stale). */
function staleNotice({ view }: SkillFacts): string | null {
  if (!view.feed.stale) return null;
  const age = view.feed.ageSec === null ? '' : ` (${duration(view.feed.ageSec)} 전 정보)`;
  return `⚠️ 실시간 정보가 제때 갱신되지 않고 있어요${age}. 실제와 다를 수 있어요.`;
}

function upText(facts: SkillFacts): string {
  const up = groupRoutes(facts.view, 'up');
  const lines = facts.routes.map(({ routeNo }) => {
    const route = up.find((candidate) => candidate.routeNo === routeNo);
    return `${routeNo}번 ${route ? arrivalText(route) : '오는 버스 없음'}`;
  });
  const header = `학교 가는 버스 · ${STOP_NAMES.up[0]} 도착`;
  const missing = facts.view.feed.takenAt === null ? '실시간 정보를 아직 받지 못했어요.' : null;
  return [header, missing ?? lines.join('\n')].join('\n');
}

function downText(facts: SkillFacts): string {
  const down = groupRoutes(facts.view, 'down');
  if (down.length === 0) return '학교에서 나가는 버스의 예상 출발 정보가 아직 없어요.';
  const lines = down.map(({ routeNo, data }) => {
    const next = data.estimate ? formatKstTime(new Date(data.estimate)) : null;
    return `${routeNo}번 ${next ? `${next} 출발` : '오늘 남은 출발 없음'}`;
  });
  return ['학교에서 나가는 버스 · 다음 출발 예정', ...lines, '예상 시각이라 실제와 다를 수 있어요.'].join('\n');
}

/** The route's estimated departures at or after `now`. */
const remaining = (facts: SkillFacts, routeNo: string) =>
  (facts.predictions.find((route) => route.routeNo === routeNo)?.estimate ?? []).filter(
    ({ at }) => at.getTime() >= facts.now.getTime(),
  );

function routeText(facts: SkillFacts, routeNo: string): string {
  const up = groupRoutes(facts.view, 'up').find((route) => route.routeNo === routeNo);
  const coming = facts.view.feed.takenAt === null ? '정보 없음' : up ? arrivalText(up) : '없음';
  const times = remaining(facts, routeNo).map(({ at }) => formatKstTime(at));
  const departures =
    times.length > 0 ? [`오늘 남은 출발 예정 ${times.length}회`, times.join(' ')] : ['오늘 남은 출발 예정이 없어요.'];
  return [`${routeNo}번`, `학교 가는 버스: ${coming}`, ...departures].join('\n');
}

function timetableText(facts: SkillFacts): string {
  const lines = facts.routes.map(({ routeNo }) => {
    const times = remaining(facts, routeNo).map(({ at }) => formatKstTime(at));
    if (times.length === 0) return `${routeNo}번 오늘 남은 출발 없음`;
    const more = times.length - TIMETABLE_TIMES_PER_ROUTE;
    return `${routeNo}번 ${times.slice(0, TIMETABLE_TIMES_PER_ROUTE).join(' ')}${more > 0 ? ` 외 ${more}회` : ''}`;
  });
  return ['오늘 학교에서 출발 예정', ...lines, '노선 번호를 보내면 전체를 볼 수 있어요.'].join('\n');
}

/**
 * The route's last departure from campus on `serviceDate`: the day's last predicted departure, the
 * one the cards' 막차 mark and the expected times modal show (lastDeparture, docs/product.md §11),
 * or the timetable's `last` for the day type when there are no predictions for it.
 */
function lastOf({ predictions }: SkillFacts, route: SkillFacts['routes'][number], serviceDate: string): Date {
  const predicted = predictions.find((candidate) => candidate.routeNo === route.routeNo);
  return (predicted && lastDeparture(predicted)) ?? timetableDeparture(route, serviceDate, 'last');
}

/**
 * The last departure from campus (lastOf, KST HH:mm) of each route, or of `routeNo` only, on the
 * service day of `now` (serviceClock: from 00:30 KST that is the coming day's).
 */
function lastBusText(facts: SkillFacts, routeNo?: string): string {
  const { now, routes } = facts;
  const { serviceDate } = serviceClock(now);
  const lines = routes
    .filter((route) => routeNo === undefined || route.routeNo === routeNo)
    .map((route) => {
      const last = lastOf(facts, route, serviceDate);
      return `${route.routeNo}번 ${formatKstTime(last)}${last.getTime() < now.getTime() ? ' (운행 끝)' : ''}`;
    });
  return [`오늘 막차 · 학교 출발 (${DAY_TYPE_NAMES[dayType(serviceDate)]})`, ...lines].join('\n');
}

/**
 * The service day whose first buses come next when none runs now: outside service hours (00:30–05:00
 * KST, SERVICE_HOURS) the day starting at 05:00, and after every route's last departure of the day
 * the next one. null while buses run.
 */
function nextServiceDate(facts: SkillFacts): string | null {
  const { now, view, routes } = facts;
  const { serviceDate } = serviceClock(now);
  if (!view.feed.inService) return serviceDate;
  const over = routes.every((route) => lastOf(facts, route, serviceDate).getTime() < now.getTime());
  return over ? addServiceDays(serviceDate, 1) : null;
}

/** When no bus runs: when the first bus leaves campus, and each route's first departure of `serviceDate`. */
function noServiceText({ now, view, routes }: SkillFacts, serviceDate: string): string {
  const firsts = routes.map((route) => ({
    routeNo: route.routeNo,
    at: timetableDeparture(route, serviceDate, 'first'),
  }));
  const earliest = new Date(Math.min(...firsts.map(({ at }) => at.getTime())));
  const wait = duration((earliest.getTime() - now.getTime()) / 1000);
  return [
    view.feed.inService ? '오늘 버스 운행이 모두 끝났어요.' : '지금은 버스 운행 시간이 아니에요.',
    `첫차는 ${formatKstTime(earliest)}에 학교에서 출발해요 (${wait} 후).`,
    `첫차 · 학교 출발 (${DAY_TYPE_NAMES[dayType(serviceDate)]})`,
    ...firsts.map(({ routeNo, at }) => `${routeNo}번 ${formatKstTime(at)}`),
  ].join('\n');
}

/**
 * The skill response's text for `intent`, at most KAKAO_LIMITS.simpleTextText characters. The questions on
 * the buses running now (up, down, a route, the timetable) get the first buses instead when none
 * runs, and start with the stale warning when the snapshot is stale, so a cut never drops it.
 */
export function skillResponseText(intent: SkillIntent, facts: SkillFacts): string {
  let text: string;
  if (intent.kind === 'lastBus') text = lastBusText(facts, intent.routeNo);
  else if (intent.kind === 'help') text = HELP_TEXT;
  else {
    const next = nextServiceDate(facts);
    text =
      next !== null
        ? noServiceText(facts, next)
        : [staleNotice(facts), liveText(intent, facts)].filter(Boolean).join('\n');
  }
  return clipText(text, KAKAO_LIMITS.simpleTextText);
}

function liveText(intent: Extract<SkillIntent, { kind: 'up' | 'down' | 'route' | 'timetable' }>, facts: SkillFacts) {
  switch (intent.kind) {
    case 'up':
      return upText(facts);
    case 'down':
      return downText(facts);
    case 'route':
      return routeText(facts, intent.routeNo);
    case 'timetable':
      return timetableText(facts);
  }
}

/** Quick replies to the other questions (all of them after help), at most KAKAO_LIMITS.quickReplies. */
export function quickRepliesFor(intent: SkillIntent): QuickReply[] {
  const routeOf = (question: SkillIntent) => ('routeNo' in question ? question.routeNo : undefined);
  const same = (other: SkillIntent) => other.kind === intent.kind && routeOf(other) === routeOf(intent);
  return QUESTIONS.filter((question) => !same(question.intent))
    .slice(0, KAKAO_LIMITS.quickReplies)
    .map(({ label }) => ({ label, action: 'message', messageText: label }));
}

/**
 * The SkillResponse (version 2.0) for `intent`: its text as a simpleText, then the ad card when
 * there is one, and quick replies to the other questions. Valid against SkillResponseSchema.
 */
export function skillResponseFor(
  intent: SkillIntent,
  facts: SkillFacts,
  adCard: BasicCard | null = null,
): SkillResponse {
  const outputs: SkillOutput[] = [{ simpleText: { text: skillResponseText(intent, facts) } }];
  if (adCard) outputs.push({ basicCard: adCard });
  return { version: '2.0', template: { outputs, quickReplies: quickRepliesFor(intent) } };
}
