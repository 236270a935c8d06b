import { intentOf, normaliseUtterance, UTTERANCE_READ_MAX, type SkillIntent } from './intent';

const up: SkillIntent = { kind: 'up' };
const down: SkillIntent = { kind: 'down' };
const timetable: SkillIntent = { kind: 'timetable' };
const lastBus: SkillIntent = { kind: 'lastBus' };
const help: SkillIntent = { kind: 'help' };
const route = (routeNo: '1150' | '1117' | '1303' | '1005'): SkillIntent => ({ kind: 'route', routeNo });

describe('intentOf (utterance)', () => {
  it.each<[string, SkillIntent]>([
    ['버스', up],
    ['버스?', up],
    [' 버스 ', up],
    ['상행', up],
    ['상행 버스', up],
    ['학교 가는 버스', up],
    ['학교가는버스', up],
    ['학교  가는   버스!!', up],
    ['학교로 오는 버스', up],
    ['도착', up],
    ['버스 언제 와?', up],
    ['하행', down],
    ['하행 버스', down],
    ['나가는 버스', down],
    ['나가는버스', down],
    ['학교에서 나가는 버스', down],
    ['출발', down],
    ['출발 시간', down],
    ['1150', route('1150')],
    ['1150번', route('1150')],
    ['1150번?', route('1150')],
    ['１１５０', route('1150')],
    ['１１５０번', route('1150')],
    ['1117 출발', route('1117')],
    ['1303번 시간표', route('1303')],
    ['1005번 버스', route('1005')],
    ['시간표', timetable],
    ['버스 시간표', timetable],
    ['시간표 알려줘', timetable],
    ['막차', lastBus],
    ['막차 언제야?', lastBus],
    ['버스 막차 시간표', lastBus],
    ['안녕', help],
    ['', help],
    ['   ', help],
    ['9999', help],
    ['9999번 버스', help],
    ['도움말', help],
    // Where the student is going decides the direction: campus-bound is up, anywhere else is down.
    ['등교', up],
    ['등교 버스', up],
    ['외대 가는 버스', up],
    ['기숙사 가는 버스', up],
    ['하교', down],
    ['하교 버스', down],
    ['집 가는 버스', down],
    ['집에 가는 버스', down],
    ['강남 가는 버스', down],
    ['역 가는 버스', down],
    ['역으로', down],
    ['역시 버스', up],
    // Spaces inside a keyword, English, an emoji.
    ['막 차', lastBus],
    ['시간 표', timetable],
    ['bus', up],
    ['Last bus?', lastBus],
    ['🚌', up],
    // Times are not route numbers; a route's 막차 is that route's last bus.
    ['8시 버스', up],
    ['10분 뒤 버스', up],
    ['1150 막차', { kind: 'lastBus', routeNo: '1150' }],
    ['1117번 막차 언제야', { kind: 'lastBus', routeNo: '1117' }],
    ['1150 언제 와', route('1150')],
    ['5번 버스', help],
  ])('%j → %o', (utterance, expected) => {
    expect(intentOf(utterance)).toEqual(expected);
  });
});

describe('intentOf (action.params win over the utterance)', () => {
  it.each<[string, Record<string, string>, SkillIntent]>([
    ['버스', { routeNo: '1150' }, route('1150')],
    ['아무 말', { routeNo: '1117번' }, route('1117')],
    ['아무 말', { routeNo: '１３０３' }, route('1303')],
    ['아무 말', { routeNo: '1150번 버스' }, route('1150')],
    ['하행', { direction: 'up' }, up],
    ['버스', { direction: '하행' }, down],
    ['버스', { direction: 'down' }, down],
    ['하행', { routeNo: '1005', direction: 'up' }, route('1005')],
    // A parameter we do not know leaves the utterance to decide.
    ['막차', { routeNo: '9999' }, lastBus],
    ['막차', { direction: 'sideways' }, lastBus],
    ['시간표', { other: 'x' }, timetable],
  ])('%j with %o → %o', (utterance, params, expected) => {
    expect(intentOf(utterance, params)).toEqual(expected);
  });
});

describe('normaliseUtterance', () => {
  it.each([
    ['  학교   가는\t버스?! ', '학교 가는 버스'],
    ['１１５０번', '1150번'],
    ['ＢＵＳ~', 'bus'],
    ['막차…', '막차'],
  ])('%j → %j', (input, expected) => {
    expect(normaliseUtterance(input)).toBe(expected);
  });
});

describe('a very long utterance', () => {
  it('reads only its first UTTERANCE_READ_MAX characters, so 60,000 characters cost no more than 200', () => {
    const flood = `버스${'!'.repeat(60_000)}가`;
    expect(normaliseUtterance(flood)).toBe('버스');
    expect(intentOf(flood)).toEqual(up);
    expect(normaliseUtterance(`${'가'.repeat(UTTERANCE_READ_MAX)}막차`)).toBe('가'.repeat(UTTERANCE_READ_MAX));
  });
});
