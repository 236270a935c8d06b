/**
 * The predictions' promises on the corridor generator (scripts/corridor-generator.ts: travel that
 * varies, partial layover recovery, noisy layovers, 8 % of passages unseen), whose terminus
 * behaves otherwise than the standard generator's: those of tests/setup/prediction-quality.ts.
 * On a route whose late buses keep most of a lateness that drifts by the week (seed 6's 1117:
 * ρ 0.72, +0.48 min a week), no plan made before the day can know the day's lateness, so 'history'
 * is held to 0.9× the best baseline per route there, 0.8× overall as everywhere. Its own file, so
 * that it runs beside the standard generator's.
 */
import { describePredictionQuality } from './setup/prediction-quality';

describePredictionQuality('corridor', { routeRatio: 0.9 });
