import { intentOf, normaliseUtterance, type SkillIntent } from './intent';

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
  ])('%j → %o', (utterance, expected) => {
    expect(intentOf(utterance)).toEqual(expected);
  });
});

describe('intentOf (action.params win over the utterance)', () => {
  it.each<[string, Record<string, string>, SkillIntent]>([
    ['버스', { routeNo: '1150' }, route('1150')],
    ['아무 말', { routeNo: '1117번' }, route('1117')],
    ['아무 말', { routeNo: '１３０３' }, route('1303')],
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
