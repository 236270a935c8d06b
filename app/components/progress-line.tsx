/**
 * The progress line of one direction's stops (docs/product.md §2.3 Home screen): a stop with a bus is
 * highlighted and shows chips with the route numbers and the plates' last four digits; with no bus
 * on the line, a caption says so. The up line says which buses it shows, since the cards beside it
 * are other buses.
 */
import type { VehicleMarker } from '../../contract/bus';
import { STOP_NAMES, type Direction } from '../../contract/transit';
import { plateTail, vehiclesByStop } from '~/utils/stops';

/**
 * Which buses the up line shows, beside the cards (docs/product.md §2.3): the line starts at the
 * crossroads, so its buses have passed it, while the cards are the buses still coming to it.
 */
const UP_LINE_NOTE =
  '노선도의 버스는 외대사거리를 지나 캠퍼스 안에 있는 버스이고, 도착 정보는 외대사거리로 오는 버스입니다.';

/** Positions this old (seconds) or older say their age: they are read less often than the arrivals (docs/gbis.md §Quota). */
const POSITIONS_OLD_SEC = 60;

/** The caption under the line: how many buses it shows, and as of when once the positions are old. */
function captionOf(busCount: number, vehiclesAgeSec: number | undefined): string {
  const oldMin =
    vehiclesAgeSec !== undefined && vehiclesAgeSec >= POSITIONS_OLD_SEC ? Math.floor(vehiclesAgeSec / 60) : null;
  if (busCount > 0) return `이 구간에 버스 ${busCount}대${oldMin === null ? '' : ` (${oldMin}분 전 위치)`}`;
  return oldMin === null ? '현재 이 구간에 버스가 없습니다.' : `${oldMin}분 전 기준 이 구간에 버스가 없습니다.`;
}

/**
 * `vehicles` is null when nothing true can be said of the buses (the data could not be loaded, the
 * refreshes fail, the live feed is not set up): the stops show, with no claim about buses.
 * `vehiclesAgeSec` (FeedStatus) is how old the positions are; from a minute on, the caption says so.
 */
export function ProgressLine({
  direction,
  vehicles,
  vehiclesAgeSec,
}: {
  direction: Direction;
  vehicles: readonly VehicleMarker[] | null;
  vehiclesAgeSec?: number;
}) {
  const stops = vehiclesByStop(vehicles ?? [], direction);
  const busCount = stops.reduce((count, atStop) => count + atStop.length, 0);
  const caption = vehicles === null ? '' : captionOf(busCount, vehiclesAgeSec);

  return (
    <section className="progress" aria-labelledby="progress-title">
      <h2 id="progress-title" className="section-title">
        버스 위치
      </h2>
      <ol className="progress__stops">
        {STOP_NAMES[direction].map((name, index) => {
          const atStop = stops[index];
          return (
            <li key={name} className={atStop.length > 0 ? 'stop stop--active' : 'stop'}>
              <span className="stop__name">{name}</span>
              {atStop.length > 0 && (
                <ul className="stop__chips">
                  {atStop.map(({ routeNo, plateNo }, chip) => {
                    const tail = plateTail(plateNo);
                    return (
                      <li key={chip} className="chip">
                        {routeNo}
                        <span className="sr-only">번 버스{plateNo ? `, 차량 ${plateNo}` : ''}</span>
                        {tail && (
                          <span className="chip__plate" aria-hidden="true">
                            {tail}
                          </span>
                        )}
                      </li>
                    );
                  })}
                </ul>
              )}
            </li>
          );
        })}
      </ol>
      <p className="progress__caption">{caption}</p>
      {direction === 'up' && <p className="progress__note">{UP_LINE_NOTE}</p>}
    </section>
  );
}
