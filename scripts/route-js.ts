/**
 * The JavaScript a browser loads for each page of the Remix build, read from its asset manifest
 * (public/build/manifest-*.js, written by `npm run build`; with lazy route discovery the page
 * itself never loads that file): the entry module and its imports, then the module and imports of
 * every route from root down to the page. Shared by `npm run bench` (the
 * gzipped JS per route) and .size-limit.ts (the home page's budget in `npm test`).
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

type ManifestRoute = {
  id: string;
  parentId?: string;
  path?: string;
  index?: boolean;
  module: string;
  imports?: string[];
};
type AssetManifest = { entry: { module: string; imports?: string[] }; routes: Record<string, ManifestRoute> };

const PUBLIC_DIR = 'public';

function readManifest(): AssetManifest {
  const file = readdirSync(join(PUBLIC_DIR, 'build')).find((name) => /^manifest-[A-Z0-9]+\.js$/.test(name));
  if (!file) throw new Error('public/build has no manifest: run `npm run build` first.');
  const source = readFileSync(join(PUBLIC_DIR, 'build', file), 'utf8');
  return JSON.parse(source.slice(source.indexOf('{'), source.lastIndexOf('}') + 1)) as AssetManifest;
}

/** Whether app/routes' module of `routeId` renders a page (has a default export), unlike a resource route. */
function isPage(routeId: string): boolean {
  const base = join('app', `${routeId}`);
  const file = ['.tsx', '.ts'].map((ext) => base + ext).find((path) => existsSync(path));
  return file !== undefined && /^export default /m.test(readFileSync(file, 'utf8'));
}

/**
 * The page routes of the build (resource routes left out) with the files their first load fetches.
 * @returns routeId → paths relative to the repository root (public/build/...), deduplicated, in load order.
 * @throws when the build is missing.
 */
export function routeScripts(): Map<string, string[]> {
  const manifest = readManifest();
  const chain = (id: string): ManifestRoute[] => {
    const route = manifest.routes[id];
    return route.parentId ? [...chain(route.parentId), route] : [route];
  };
  const pages = new Map<string, string[]>();
  for (const id of Object.keys(manifest.routes)) {
    if (id === 'root' || !isPage(id)) continue;
    const urls = [manifest.entry.module, ...(manifest.entry.imports ?? [])];
    for (const route of chain(id)) urls.push(route.module, ...(route.imports ?? []));
    pages.set(id, [...new Set(urls.map((url) => join(PUBLIC_DIR, url)))]);
  }
  return pages;
}
