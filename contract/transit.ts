/**
 * Route and stop identity the api and the web share (docs/product.md §2.3 Home screen, §9 route filter): the one
 * source of the route numbers and the progress-line stop names. GBIS ids and timetables stay in the
 * api (api/bus/feed/transit-config.ts); the web shows these names without a call (docs/product.md §7).
 */

/** The four routes, in the spec's route filter order (docs/product.md §9). */
export const ROUTE_NOS = ['1150', '1117', '1303', '1005'] as const;
export type RouteNo = (typeof ROUTE_NOS)[number];

/** Timetable day types (GBIS route info: weekday, Saturday, Sunday or public holiday). */
export const DAY_TYPES = ['weekday', 'saturday', 'holiday'] as const;
export type DayType = (typeof DAY_TYPES)[number];

/** The day types' names in Korean: weekday, Saturday, Sunday or public holiday. */
export const DAY_TYPE_NAMES: Record<DayType, string> = {
  weekday: '평일',
  saturday: '토요일',
  holiday: '일요일·공휴일',
};

/** 상행 (toward the campus) or 하행 (leaving it). */
export type Direction = 'up' | 'down';

/**
 * Progress-line stop names per direction, in spec order: up toward the campus (5), down leaving it
 * (4). Index 0 of `up` is where arrivals are measured (campus crossroads); index 0 of `down` is the
 * down terminus. The index of a name is the contract's `Section.stopIndex`.
 */
export const STOP_NAMES = {
  up: ['외대사거리', '모현사거리', '외대 기숙사', '외대 도서관', '파란지붕'],
  down: ['파란지붕', '기숙사', '모현사거리', '외대사거리'],
} as const satisfies Record<Direction, readonly string[]>;

/**
 * The stops' English names (docs/product.md §1 Languages), shown on English pages beside the Korean
 * name the stop's sign carries: the campus's own English names where it has them, the place name
 * romanized (Revised Romanization) otherwise.
 */
export const STOP_NAMES_EN: Record<(typeof STOP_NAMES)[Direction][number], string> = {
  외대사거리: 'HUFS Crossroads',
  모현사거리: 'Mohyeon Crossroads',
  '외대 기숙사': 'HUFS Dormitory',
  '외대 도서관': 'HUFS Library',
  파란지붕: 'Paranjibung (Blue Roof)',
  기숙사: 'Dormitory',
};
