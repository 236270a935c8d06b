/**
 * The progress line of one direction's stops (docs/product.md §2.3 Home screen): a stop with a bus is
 * highlighted and shows chips with the route numbers and the plates' last four digits; with no bus
 * on the line, a caption says so. The up line says which buses it shows, since the cards beside it
 * are other buses.
 */
import type { VehicleMarker } from '../../contract/bus';
import { STOP_NAMES, STOP_NAMES_EN, type Direction } from '../../contract/transit';
import { plateTail, vehiclesByStop } from '~/utils/stops';
import { KoreanText, useLocale, useT } from '~/i18n/i18n';
import home from '~/i18n/compiled/ko/home.js';

/** Positions this old (seconds) or older say their age: they are read less often than the arrivals (docs/gbis.md §Quota). */
const POSITIONS_OLD_SEC = 60;

/** The caption under the line: how many buses it shows, and as of when once the positions are old. */
function captionOf(
  t: ReturnType<typeof useT<keyof typeof home>>,
  count: number,
  vehiclesAgeSec: number | undefined,
): string {
  const minutes =
    vehiclesAgeSec !== undefined && vehiclesAgeSec >= POSITIONS_OLD_SEC ? Math.floor(vehiclesAgeSec / 60) : null;
  if (count > 0) return minutes === null ? t('line.buses', { count }) : t('line.busesOld', { count, minutes });
  return minutes === null ? t('line.none') : t('line.noneOld', { minutes });
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
  const t = useT(home);
  const english = useLocale() === 'en';
  const caption = vehicles === null ? '' : captionOf(t, busCount, vehiclesAgeSec);

  return (
    <section className="progress" aria-labelledby="progress-title">
      <h2 id="progress-title" className="section-title">
        {t('line.title')}
      </h2>
      <ol className="progress__stops">
        {STOP_NAMES[direction].map((name, index) => {
          const atStop = stops[index];
          return (
            <li key={name} className={atStop.length > 0 ? 'stop stop--active' : 'stop'}>
              <span className="stop__name">
                {english ? (
                  // The Korean name too: it is what the stop's sign says.
                  <>
                    {STOP_NAMES_EN[name]}{' '}
                    <span className="stop__name-ko" lang="ko">
                      {name}
                    </span>
                  </>
                ) : (
                  name
                )}
              </span>
              {atStop.length > 0 && (
                <ul className="stop__chips">
                  {atStop.map(({ routeNo, plateNo }, chip) => {
                    const tail = plateTail(plateNo);
                    return (
                      <li key={chip} className="chip">
                        {routeNo}
                        <span className="sr-only">
                          {plateNo ? (
                            <>
                              {t('line.chipPlateBefore')}
                              <KoreanText>{plateNo}</KoreanText>
                            </>
                          ) : (
                            t('line.chip')
                          )}
                        </span>
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
      {/* Which buses the up line shows beside the cards (docs/product.md §2.3): the line starts at the
          crossroads, so its buses have passed it, while the cards are the buses still coming to it. */}
      {direction === 'up' && <p className="progress__note">{t('line.upNote')}</p>}
    </section>
  );
}
