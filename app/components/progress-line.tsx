/**
 * The progress line of one direction's stops (docs/product.md §2.3 Home screen): a stop with a bus is
 * highlighted and shows chips with the route numbers; with no bus on the line, a caption says so.
 */
import type { VehicleMarker } from '../../contract/bus';
import { STOP_NAMES, type Direction } from '../../contract/transit';
import { routesByStop } from '~/utils/stops';

/** `vehicles` is null when the bus data could not be loaded: the stops show, with no claim about buses. */
export function ProgressLine({
  direction,
  vehicles,
}: {
  direction: Direction;
  vehicles: readonly VehicleMarker[] | null;
}) {
  const routes = routesByStop(vehicles ?? [], direction);
  const busCount = routes.reduce((count, atStop) => count + atStop.length, 0);
  const caption =
    vehicles === null ? '' : busCount === 0 ? '현재 이 구간에 버스가 없습니다.' : `이 구간에 버스 ${busCount}대`;

  return (
    <section className="progress" aria-labelledby="progress-title">
      <h2 id="progress-title" className="section-title">
        버스 위치
      </h2>
      <ol className="progress__stops">
        {STOP_NAMES[direction].map((name, index) => {
          const atStop = routes[index];
          return (
            <li key={name} className={atStop.length > 0 ? 'stop stop--active' : 'stop'}>
              <span className="stop__name">{name}</span>
              {atStop.length > 0 && (
                <ul className="stop__chips">
                  {atStop.map((routeNo, chip) => (
                    <li key={chip} className="chip">
                      {routeNo}
                      <span className="sr-only">번 버스</span>
                    </li>
                  ))}
                </ul>
              )}
            </li>
          );
        })}
      </ol>
      <p className="progress__caption">{caption}</p>
    </section>
  );
}
