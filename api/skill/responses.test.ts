import { SkillResponseSchema, KAKAO_LIMITS, type BasicCard } from '../../contract/skill';
import { snapshotAt } from '../../tests/setup/fakes';
import { emptyFeedState, type FeedState } from '../bus/feed/store';
import { predictDay, type RoutePredictions } from '../bus/predictions/day-plan';
import { timeLeftView } from '../bus/time-left-view';
import { DEFAULT_TRANSIT_IDS } from '../bus/feed/transit-config';
import { skillResponseText, quickRepliesFor, skillResponseFor, type SkillFacts } from './responses';
import type { SkillIntent } from './intent';

// Monday 2026-11-23 (a weekday), 08:00 KST.
const now = new Date('2026-11-23T08:00:00+09:00');
const at = (hhmm: string) => new Date(`2026-11-23T${hhmm}:00+09:00`);

function liveState(takenAt: Date, lastError: string | null = null): FeedState {
  const snapshot = snapshotAt(takenAt, [
    ['1150', 170, 2],
    ['1117', 20, 1],
  ]);
  return { source: 'gbis', snapshot, lastError, failingSince: lastError ? takenAt : null, nextPollAt: null };
}

const predictions: RoutePredictions[] = [
  {
    routeNo: '1150',
    dayBefore: [],
    weekBefore: [],
    estimate: [
      { at: at('07:50'), basis: 'history' },
      { at: at('08:12'), basis: 'live' },
      { at: at('08:40'), basis: 'history' },
      { at: at('09:05'), basis: 'history' },
    ],
  },
  { routeNo: '1117', dayBefore: [], weekBefore: [], estimate: [{ at: at('07:30'), basis: 'history' }] },
];

function facts(state: FeedState = liveState(now), instant = now, routes = predictions): SkillFacts {
  return {
    now: instant,
    view: timeLeftView(state, instant, routes),
    predictions: routes,
    routes: DEFAULT_TRANSIT_IDS.routes,
  };
}

const ALL_INTENTS: SkillIntent[] = [
  { kind: 'up' },
  { kind: 'down' },
  { kind: 'route', routeNo: '1150' },
  { kind: 'timetable' },
  { kind: 'lastBus' },
  { kind: 'help' },
];

describe('skillResponseText', () => {
  it('up: minutes and stops per route, or that no bus is coming', () => {
    expect(skillResponseText({ kind: 'up' }, facts())).toBe(
      [
        '학교 가는 버스 · 외대사거리 도착',
        '1150번 3분 후 · 2정거장 전',
        '1117번 1분 후 · 1정거장 전',
        '1303번 오는 버스 없음',
        '1005번 오는 버스 없음',
      ].join('\n'),
    );
  });

  it('up: a bus due now reads 곧 도착', () => {
    const later = new Date(now.getTime() + 30_000);
    expect(skillResponseText({ kind: 'up' }, facts(liveState(now), later))).toContain('1117번 곧 도착 · 1정거장 전');
  });

  it('up: says a stale snapshot is stale, with its age', () => {
    const text = skillResponseText({ kind: 'up' }, facts(liveState(new Date(now.getTime() - 5 * 60_000), 'timeout')));
    expect(text).toContain('⚠️ 실시간 정보가 제때 갱신되지 않고 있어요 (5분 전 정보). 실제와 다를 수 있어요.');
    expect(skillResponseText({ kind: 'up' }, facts())).not.toContain('⚠️');
  });

  it('up: before the first snapshot, says there is no live data yet', () => {
    expect(skillResponseText({ kind: 'up' }, facts(emptyFeedState('gbis')))).toBe(
      '학교 가는 버스 · 외대사거리 도착\n실시간 정보를 아직 받지 못했어요.',
    );
  });

  it('down: the next estimated departure per route', () => {
    expect(skillResponseText({ kind: 'down' }, facts())).toBe(
      [
        '학교에서 나가는 버스 · 다음 출발 예정',
        '1150번 08:12 출발',
        '1117번 오늘 남은 출발 없음',
        '예상 시각이라 실제와 다를 수 있어요.',
      ].join('\n'),
    );
    expect(skillResponseText({ kind: 'down' }, facts(liveState(now), now, []))).toBe(
      '학교에서 나가는 버스의 예상 출발 정보가 아직 없어요.',
    );
  });

  it("route: its up bus and the rest of today's departures", () => {
    expect(skillResponseText({ kind: 'route', routeNo: '1150' }, facts())).toBe(
      ['1150번', '학교 가는 버스: 3분 후 · 2정거장 전', '오늘 남은 출발 예정 3회', '08:12 08:40 09:05'].join('\n'),
    );
    expect(skillResponseText({ kind: 'route', routeNo: '1303' }, facts())).toBe(
      ['1303번', '학교 가는 버스: 없음', '오늘 남은 출발 예정이 없어요.'].join('\n'),
    );
  });

  it('timetable: the next few departures of every route, short', () => {
    const plan = predictDay([], '2026-11-23').routes;
    const text = skillResponseText({ kind: 'timetable' }, facts(liveState(now), now, plan));
    const lines = text.split('\n');
    expect(lines[0]).toBe('오늘 학교에서 출발 예정');
    expect(lines).toHaveLength(6);
    expect(lines[1]).toMatch(/^1150번 (\d\d:\d\d ){4}\d\d:\d\d 외 \d+회$/);
    expect(lines[5]).toBe('노선 번호를 보내면 전체를 볼 수 있어요.');
  });

  it("lastBus: each route's last predicted departure (the cards' 막차), else its timetable's for the day type, KST HH:mm", () => {
    // 1150 and 1117 have predictions (their last estimates: 09:05, and 07:30, gone); 1303 and 1005 none.
    expect(skillResponseText({ kind: 'lastBus' }, facts())).toBe(
      ['오늘 막차 · 학교 출발 (평일)', '1150번 09:05', '1117번 07:30 (운행 끝)', '1303번 22:50', '1005번 23:50'].join(
        '\n',
      ),
    );
    // Saturday 2026-11-28 at 23:00, no predictions: the Saturday timetable, and 1303's 22:30 has gone.
    const saturday = new Date('2026-11-28T23:00:00+09:00');
    expect(skillResponseText({ kind: 'lastBus' }, facts(liveState(saturday), saturday, []))).toBe(
      ['오늘 막차 · 학교 출발 (토요일)', '1150번 23:20', '1117번 23:30', '1303번 22:30 (운행 끝)', '1005번 23:40'].join(
        '\n',
      ),
    );
  });

  it('outside service hours: says when service starts; lastBus gives the coming service day', () => {
    // Sunday 2026-11-29 02:10 KST: the service day is Sunday (holiday timetable), not yet started.
    const night = new Date('2026-11-29T02:10:00+09:00');
    const nightFacts = facts(emptyFeedState('gbis'), night);
    for (const intent of [
      { kind: 'up' },
      { kind: 'down' },
      { kind: 'timetable' },
      { kind: 'route', routeNo: '1303' },
    ] as const) {
      expect(skillResponseText(intent, nightFacts)).toBe(
        [
          '지금은 버스 운행 시간이 아니에요.',
          '첫차는 05:30에 학교에서 출발해요 (3시간 20분 후).',
          '첫차 · 학교 출발 (일요일·공휴일)',
          '1150번 05:50',
          '1117번 05:40',
          '1303번 06:10',
          '1005번 05:30',
        ].join('\n'),
      );
    }
    expect(skillResponseText({ kind: 'lastBus' }, nightFacts).split('\n')[0]).toBe(
      '오늘 막차 · 학교 출발 (일요일·공휴일)',
    );
    expect(skillResponseText({ kind: 'help' }, nightFacts)).toContain('외대 버스 챗봇이에요.');
  });
});

describe('skillResponseText after the last bus', () => {
  it('gives the next day’s first buses once every route’s last departure has left, not before', () => {
    // Monday 2026-11-23 (weekday): the last departures are 23:30, 23:40, 22:50 and 23:50.
    const late = new Date('2026-11-23T23:45:00+09:00');
    expect(skillResponseText({ kind: 'down' }, facts(liveState(late), late))).toMatch(/^학교에서 나가는 버스/);
    const after = new Date('2026-11-23T23:55:00+09:00');
    expect(skillResponseText({ kind: 'down' }, facts(liveState(after), after))).toBe(
      [
        '오늘 버스 운행이 모두 끝났어요.',
        '첫차는 05:10에 학교에서 출발해요 (5시간 15분 후).',
        '첫차 · 학교 출발 (평일)',
        '1150번 05:30',
        '1117번 05:20',
        '1303번 05:40',
        '1005번 05:10',
      ].join('\n'),
    );
    expect(skillResponseText({ kind: 'lastBus', routeNo: '1005' }, facts(liveState(after), after))).toBe(
      '오늘 막차 · 학교 출발 (평일)\n1005번 23:50 (운행 끝)',
    );
  });
});

describe('skillResponseText on a stale snapshot', () => {
  it.each([{ kind: 'up' }, { kind: 'down' }, { kind: 'route', routeNo: '1150' }, { kind: 'timetable' }] as const)(
    '%o starts with the stale warning',
    (intent) => {
      const stale = { ...liveState(new Date(now.getTime() - 10 * 60_000)), lastError: 'GBIS timeout' };
      expect(skillResponseText(intent, facts(stale)).split('\n')[0]).toBe(
        '⚠️ 실시간 정보가 제때 갱신되지 않고 있어요 (10분 전 정보). 실제와 다를 수 있어요.',
      );
    },
  );
});

describe('quickRepliesFor', () => {
  it('offers the other questions, each sending its label', () => {
    expect(quickRepliesFor({ kind: 'up' }).map((reply) => reply.label)).toEqual([
      '나가는 버스',
      '시간표',
      '막차',
      '1150번',
      '1117번',
      '1303번',
      '1005번',
    ]);
    expect(quickRepliesFor({ kind: 'route', routeNo: '1117' }).map((reply) => reply.label)).not.toContain('1117번');
    expect(quickRepliesFor({ kind: 'help' })).toHaveLength(8);
    for (const reply of quickRepliesFor({ kind: 'help' })) {
      expect(reply).toEqual({ label: reply.label, action: 'message', messageText: reply.label });
    }
  });
});

describe('skillResponseFor', () => {
  const card: BasicCard = {
    title: '캠퍼스 카페',
    description: '오늘의 메뉴',
    thumbnail: { imageUrl: 'https://bus.example.com/images/kakao-x.png', altText: '캠퍼스 카페', fixedRatio: false },
  };

  it.each(ALL_INTENTS)('%o answers a valid SkillResponse, with and without the ad card', (intent) => {
    for (const state of [liveState(now), liveState(now, 'timeout'), emptyFeedState('gbis')]) {
      const plain = SkillResponseSchema.parse(skillResponseFor(intent, facts(state)));
      expect(plain.template.outputs).toHaveLength(1);
      const withAd = SkillResponseSchema.parse(skillResponseFor(intent, facts(state), card));
      expect(withAd.template.outputs).toEqual([plain.template.outputs[0], { basicCard: card }]);
    }
  });

  it('keeps a long answer inside the simpleText limit', () => {
    // A route with a departure every minute of the day.
    const dense: RoutePredictions[] = [
      {
        routeNo: '1150',
        dayBefore: [],
        weekBefore: [],
        estimate: Array.from({ length: 900 }, (_, i) => ({
          at: new Date(now.getTime() + i * 60_000),
          basis: 'history' as const,
        })),
      },
    ];
    const answer = skillResponseFor({ kind: 'route', routeNo: '1150' }, facts(liveState(now), now, dense));
    const [output] = SkillResponseSchema.parse(answer).template.outputs;
    expect('simpleText' in output && output.simpleText.text).toHaveLength(KAKAO_LIMITS.simpleTextText);
  });
});
