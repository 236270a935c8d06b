/**
 * The pages' messages (ADR 032): each language's catalog (app/i18n/messages/*.json, ICU
 * MessageFormat) compiled into one function per message (npm run messages), and the hook the
 * components read them by. Korean is in every bundle; English is loaded before an English page
 * hydrates (entry.client.tsx).
 */
import { createContext, useContext, type ReactNode } from 'react';
import type messages from './messages/ko.json';
import ko from './compiled/ko.js';
import { DEFAULT_LOCALE, type Locale } from './locales';

/** A message's key: one of the Korean catalog's (the catalog test holds English to the same keys). */
export type MessageKey = keyof typeof messages;
/** A message's arguments: its placeholders' values. */
export type MessageParams = Record<string, string | number>;
/** A compiled catalog: one function per message. */
export type Catalog = Record<MessageKey, (params?: MessageParams) => string>;

/** The page's language and its compiled catalog. */
type PageLanguage = { locale: Locale; catalog: Catalog };

const LanguageContext = createContext<PageLanguage>({ locale: DEFAULT_LOCALE, catalog: ko });

/**
 * Gives the pages below it their language: entry.server.tsx with the request's (locale.server.ts),
 * entry.client.tsx with the document's `<html lang>`. Without it, Korean.
 */
export function I18nProvider({ locale, catalog, children }: PageLanguage & { children: ReactNode }) {
  return <LanguageContext.Provider value={{ locale, catalog }}>{children}</LanguageContext.Provider>;
}

/** The page's language. */
export const useLocale = (): Locale => useContext(LanguageContext).locale;

/** The page language's compiled catalog, for a helper that formats outside the component (accuracySentence). */
export const useCatalog = (): Catalog => useContext(LanguageContext).catalog;

/** The message formatter of the page's language: `t(key, params)` → the text. */
export function useT(): (key: MessageKey, params?: MessageParams) => string {
  const { catalog } = useContext(LanguageContext);
  return (key, params) => catalog[key](params);
}

/**
 * The compiled catalog of `locale`: Korean's is in every bundle, English's a chunk of its own,
 * fetched before an English page hydrates (and once, on the server, by the first English render).
 */
export const catalogOf = (locale: Locale): Promise<Catalog> =>
  locale === 'en' ? import('./compiled/en.js').then((module) => module.default) : Promise.resolve(ko);
