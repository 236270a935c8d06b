/**
 * The pages' messages (ADR 032): each language's catalog (app/i18n/messages/*.json, ICU
 * MessageFormat) compiled into one function per message (npm run messages), and the hook the
 * components read them by. Korean is in every bundle; English is loaded before an English page
 * hydrates (entry.client.tsx).
 */
import { createContext, useContext, type ReactNode } from 'react';
import type messages from './messages/ko.json';
import ko from './compiled/ko.js';

/** A message's key: one of the Korean catalog's (the catalog test holds English to the same keys). */
export type MessageKey = keyof typeof messages;
/** A message's arguments: its placeholders' values. */
export type MessageParams = Record<string, string | number>;
/** A compiled catalog: one function per message. */
export type Catalog = Record<MessageKey, (params?: MessageParams) => string>;

const CatalogContext = createContext<Catalog>(ko);

/** Gives the pages below it `catalog` (the Korean one when none is given). */
export function I18nProvider({ catalog, children }: { catalog: Catalog; children: ReactNode }) {
  return <CatalogContext.Provider value={catalog}>{children}</CatalogContext.Provider>;
}

/** The message formatter of the page's language: `t(key, params)` → the text. */
export function useT(): (key: MessageKey, params?: MessageParams) => string {
  const catalog = useContext(CatalogContext);
  return (key, params) => catalog[key](params);
}
