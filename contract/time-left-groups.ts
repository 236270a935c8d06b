/**
 * Reading the groups of a timeLeft answer (docs/product.md §7.2), free of zod: the pages import it at
 * run time and zod stays out of their bundles. Types come from contract/bus.ts as type-only imports.
 */
import type { DownRoute, TimeLeftResponse, UpRoute } from './bus';

/** The routes of the `type` group of a timeLeft answer, in its order; [] when the answer has no such group. */
export function groupRoutes(body: TimeLeftResponse, type: 'up'): UpRoute[];
export function groupRoutes(body: TimeLeftResponse, type: 'down'): DownRoute[];
export function groupRoutes(body: TimeLeftResponse, type: 'up' | 'down'): UpRoute[] | DownRoute[] {
  return body.data.find((group) => group.type === type)?.routes ?? [];
}
