/**
 * `npm run gbis:discover`: resolves the GBIS routeIds of our routes, their timetables and up pass
 * of the campus crossroads (upStaOrder), the campus terminus and the stationIds of the
 * progress-line stops, prints every candidate, then a snippet to paste into
 * api/bus/feed/transit-config.ts (picking rules: api/bus/feed/gbis/discover.ts).
 *
 * Env: GBIS_SERVICE_KEY (required; the portal's Encoding or Decoding key), GBIS_BASE_URL (optional).
 * Costs about 4 × 3 route calls + 6 stop searches of the base-info quota.
 */
import { discover, renderConfigSnippet, type Discovery } from '../api/bus/feed/gbis/discover';
import { gbisHttp } from '../api/bus/feed/gbis/http';
import { FeedError } from '../api/bus/feed/snapshot';
import { CAMPUS_TERMINUS, DOWN_STOPS, ROUTES, UP_STOPS } from '../api/bus/feed/transit-config';

/** How many stops either side of the campus terminus to print per route. */
const LINE_CONTEXT = 8;

function report(found: Discovery): void {
  for (const { route, routeId, candidates, upStaOrder } of found.routes) {
    console.log(
      `\nRoute ${route.routeNo}: ${routeId ? `routeId ${routeId}` : 'AMBIGUOUS — pick one below'}, upStaOrder ${
        upStaOrder ?? 'UNKNOWN — read the up pass of the campus crossroads off its stops below'
      }`,
    );
    for (const c of candidates) {
      const mark = c.routeId === routeId ? '*' : ' ';
      console.log(
        `  ${mark} ${c.routeId}  ${c.routeName}  [${c.regionName ?? '?'}] ${c.routeTypeName ?? ''}  ${
          c.startStationName ?? '?'
        } ⟷ ${c.endStationName ?? '?'}  (${c.adminName ?? ''})`,
      );
    }
  }
  console.log(
    `\nCampus terminus: ${found.terminusId ?? 'UNKNOWN — the routes below disagree, or none has a campus terminus'}`,
  );
  for (const line of found.lines) {
    const { terminus } = line;
    const distance = (seq: number) => Math.abs(seq - terminus.stationSeq);
    const near = line.stations.filter(
      (s) => Math.min(distance(s.stationSeq), line.stations.length - distance(s.stationSeq)) <= LINE_CONTEXT,
    );
    console.log(
      `\nStops of ${line.routeNo} around its campus terminus (seq ${terminus.stationSeq} ${terminus.stationId} ${
        terminus.stationName ?? '?'
      }):`,
    );
    for (const s of near)
      console.log(
        `    ${String(s.stationSeq).padStart(3)}  ${s.stationId}  ${s.stationName ?? '?'}${
          s.turnYn === 'Y' ? '  (turn)' : ''
        }`,
      );
  }
  for (const stop of found.stops) {
    console.log(`\n${stop.direction} ${stop.index} ${stop.name}: ${stop.stationId ?? 'AMBIGUOUS — pick one below'}`);
    for (const c of stop.candidates) {
      const mark = c.stationId === stop.stationId ? '*' : ' ';
      console.log(
        `  ${mark} ${c.stationId}  ${c.stationName ?? '?'}  mobileNo ${c.mobileNo ?? '?'}  side ${c.side ?? '?'}  (${
          c.y ?? '?'
        }, ${c.x ?? '?'}) [${c.regionName ?? '?'}]`,
      );
    }
  }
}

const serviceKey = process.env.GBIS_SERVICE_KEY?.trim();
if (!serviceKey) {
  console.error(
    'GBIS_SERVICE_KEY is not set. Get a key for the GBIS v2 datasets at data.go.kr and run:\n  GBIS_SERVICE_KEY=… npm run gbis:discover',
  );
  process.exit(1);
}
try {
  const http = gbisHttp({ serviceKey, baseUrl: process.env.GBIS_BASE_URL || undefined, timeoutMs: 10_000 });
  const found = await discover(http, { routes: ROUTES, upStops: UP_STOPS, downStops: DOWN_STOPS });
  report(found);
  console.log(
    '\n// ── paste into api/bus/feed/transit-config.ts (replace ROUTES, UP_STOPS, DOWN_STOPS, CAMPUS_TERMINUS) ──\n',
  );
  console.log(renderConfigSnippet(found, { upStops: UP_STOPS, downStops: DOWN_STOPS, terminus: CAMPUS_TERMINUS }));
} catch (error) {
  if (!(error instanceof FeedError)) throw error;
  console.error(`GBIS discovery failed (${error.kind}): ${error.message}`);
  process.exit(1);
}
