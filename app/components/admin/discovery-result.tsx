/**
 * What a GBIS discovery found, on the setup page /admin-only/gbis (docs/gbis.md §Setup page): the
 * GBIS calls it spent, and for each value it could not decide (a route's routeId or its campus
 * crossroads staOrder, a stop's stationId) the candidates GBIS listed, plus the stops around each
 * route's campus terminus to check sides and staOrders by, each a table that stacks on a phone. The
 * values themselves go into the form.
 */
import type { GbisDiscovery } from '../../../contract/gbis';
import { StackedTable } from './stacked-table';

/** The discovery answer (contract GbisDiscovery) and its calls spent, as a status line and candidate tables. */
export function DiscoveryResult({ discovery, callsSpent }: { discovery: GbisDiscovery; callsSpent: number }) {
  const ambiguousRoutes = discovery.routes.filter((route) => route.routeId === null || route.upStaOrder === null);
  const ambiguousStops = discovery.stops.filter((stop) => stop.stationId === null);
  return (
    <div className="gbis-discovery">
      <p role="status" className="admin-success">
        GBIS를 {callsSpent}번 호출해 찾았습니다. 아래 양식에 채워 두었으니 확인한 뒤 저장해주세요.
        {ambiguousRoutes.length + ambiguousStops.length > 0 && ' 정하지 못한 값은 후보를 보고 직접 입력해주세요.'}
      </p>
      {ambiguousRoutes.map((route) => (
        <Candidates
          key={route.routeNo}
          caption={`${route.routeNo}번: ${route.routeId === null ? '노선 id 후보' : '외대사거리 상행 정류장 순번을 정하지 못함'}`}
          empty="GBIS에 이 번호의 노선이 없습니다."
          rows={route.candidates.map((c) => [
            c.routeId,
            c.routeName ?? '?',
            c.regionName ?? '?',
            `${c.startStationName ?? '?'} ⟷ ${c.endStationName ?? '?'}`,
          ])}
          headers={['노선 id', '번호', '지역', '기점 ⟷ 종점']}
        />
      ))}
      {ambiguousStops.map((stop) => (
        <Candidates
          key={`${stop.direction}-${stop.index}`}
          caption={`${stop.direction === 'up' ? '상행' : '하행'} ${stop.name}: 정류소 id 후보`}
          empty="후보가 없습니다."
          rows={stop.candidates.map((c) => [
            c.stationId,
            c.stationName ?? '?',
            c.mobileNo ?? '?',
            c.side === 'up' ? '상행' : c.side === 'down' ? '하행' : '모름',
          ])}
          headers={['정류소 id', '이름', '정류소 번호', '방향']}
        />
      ))}
      {discovery.lines.map((line) => (
        <Candidates
          key={line.routeNo}
          caption={`${line.routeNo}번 종점(순번 ${line.terminusSeq}) 주변 정류소`}
          empty="정류소 목록이 없습니다."
          rows={line.stations.map((s) => [String(s.seq), s.stationId, `${s.name ?? '?'}${s.turn ? ' (회차)' : ''}`])}
          headers={['순번', '정류소 id', '이름']}
        />
      ))}
    </div>
  );
}

/** One table of candidates: the first column, the id, heads its row (StackedTable). */
function Candidates({
  caption,
  headers,
  rows,
  empty,
}: {
  caption: string;
  headers: string[];
  rows: string[][];
  empty: string;
}) {
  return (
    <StackedTable
      caption={caption}
      columns={headers}
      rows={rows.map((cells) => ({ key: cells.join('|'), cells }))}
      empty={empty}
    />
  );
}
