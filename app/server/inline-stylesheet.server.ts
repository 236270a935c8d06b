/**
 * The text of the built app stylesheet, for InlineStylesheet (app/components/inline-stylesheet.tsx).
 * `href` is its public URL ("/build/_assets/app-HASH.css"); the file is under public/, next to
 * build/ where this module runs from (build/index.js). Read once per process.
 * @throws when the build has no such file (a partial build).
 */
import { readFileSync } from 'node:fs';

let cached: { href: string; css: string } | null = null;

export function stylesheetText(href: string): string {
  if (cached?.href !== href) {
    cached = { href, css: readFileSync(new URL(`../public${href}`, import.meta.url), 'utf8') };
  }
  return cached.css;
}
