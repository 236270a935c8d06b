/**
 * The predictions' promises on the standard generator (scripts/history-generator.ts): those of
 * tests/setup/prediction-quality.ts, with 'history' at most 0.8× the best baseline's MAE on every
 * route too, and an estimate ETA score of at least 75 % on every seed it runs.
 */
import { describePredictionQuality } from './setup/prediction-quality';

describePredictionQuality('standard', { routeRatio: 0.8, minEstimateEta: 75 });
