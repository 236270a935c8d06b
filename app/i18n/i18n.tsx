/**
 * The pages' messages (ADR 032): the catalogs (app/i18n/messages/{locale}/{namespace}.json, ICU
 * MessageFormat) compiled into one function per message (npm run messages), and the hook the
 * components read them by. A component imports the Korean module of its namespace
 * (`~/i18n/compiled/ko/{namespace}.js`), so a page carries only the Korean it shows; the English
 * module holds every namespace and is loaded before an English page hydrates (entry.client.tsx).
 */
import { createContext, Fragment, useContext, type ReactNode } from 'react';
import type common from './messages/ko/common.json';
import type home from './messages/ko/home.json';
import type install from './messages/ko/install.json';
import type howto from './messages/ko/howto.json';
import type faq from './messages/ko/faq.json';
import type privacy from './messages/ko/privacy.json';
import type contact from './messages/ko/contact.json';
import type ads from './messages/ko/ads.json';
import type edge from './messages/ko/edge.json';
import type { Locale } from '../../contract/locales';

/** A message's key: one of the Korean catalogs' (the catalog test holds English to the same keys). */
export type MessageKey =
  | keyof typeof common
  | keyof typeof home
  | keyof typeof install
  | keyof typeof howto
  | keyof typeof faq
  | keyof typeof privacy
  | keyof typeof contact
  | keyof typeof ads
  | keyof typeof edge;
/** A message's arguments: its placeholders' values. */
export type MessageParams = Record<string, string | number>;
/** Compiled messages: one function per key. */
export type Messages<K extends string> = Record<K, (params?: MessageParams) => string>;
/** The compiled messages of every namespace (the English module). */
export type Catalog = Messages<MessageKey>;

/** The page's language, and the English catalog when it is English. */
type PageLanguage = { locale: Locale; english: Catalog | null };

const LanguageContext = createContext<PageLanguage>({ locale: 'ko', english: null });

/**
 * Gives the pages below it their language: entry.server.tsx with the request's (locale.server.ts),
 * entry.client.tsx with the document's `<html lang>`. Without it, Korean.
 */
export function I18nProvider({ locale, english, children }: PageLanguage & { children: ReactNode }) {
  return <LanguageContext.Provider value={{ locale, english }}>{children}</LanguageContext.Provider>;
}

/** The page's language. */
export const useLocale = (): Locale => useContext(LanguageContext).locale;

/**
 * The message formatter of the page's language, for the keys of `korean` (a Korean module,
 * `~/i18n/compiled/ko/{namespace}.js`): `t(key, params)` → the text.
 */
export function useT<K extends MessageKey>(korean: Messages<K>): (key: K, params?: MessageParams) => string {
  const { locale, english } = useContext(LanguageContext);
  return (key, params) => (locale === 'en' && english ? english[key] : korean[key])(params);
}

/** The English catalog once fetched: the page's meta functions read it (metaT). */
let loadedEnglish: Catalog | null = null;

/** The English catalog: a chunk of its own, fetched before an English page hydrates (and once by the server). */
export const englishCatalog = (): Promise<Catalog> =>
  import('./compiled/en.js').then((module) => (loadedEnglish = module.default));

/**
 * The message formatter of a route's meta function (Remix calls it outside the React tree), for the
 * keys of `korean`: the language is the root loader's `locale` among `matches`. English falls back to
 * Korean only if the English catalog is not yet fetched, which cannot happen on an English page:
 * entry.server.tsx and entry.client.tsx fetch it before they render.
 */
export function metaT<K extends MessageKey>(
  matches: readonly { id: string; data?: unknown }[],
  korean: Messages<K>,
): (key: K, params?: MessageParams) => string {
  const root = matches.find((match) => match.id === 'root')?.data as { locale?: Locale } | undefined;
  return (key, params) => (root?.locale === 'en' && loadedEnglish ? loadedEnglish[key] : korean[key])(params);
}

/**
 * The message formatter of `locale` outside React (an action's answer, docs/product.md §1
 * Languages), for the keys of `korean` (a Korean module): English fetches the English catalog once.
 */
export async function translator<K extends MessageKey>(
  locale: Locale,
  korean: Messages<K>,
): Promise<(key: K, params?: MessageParams) => string> {
  const english = locale === 'en' ? await englishCatalog() : null;
  return (key, params) => (english ? english[key] : korean[key])(params);
}

/** Hangul syllables: text with any is Korean. */
const HANGUL = /[\uac00-\ud7a3]/;

/**
 * Words a page shows as they were written, whatever its language: a bus's licence plate (GBIS
 * plateNo, e.g. 경기70아1234) as painted on the bus, the bank and holder an operator configured
 * (AD_BANK_*). On a page in another language, such words in Korean (with Hangul) are marked
 * `lang="ko"`, so a screen reader reads them in Korean; otherwise they are plain text.
 */
export function KoreanText({ children }: { children: string }) {
  return useLocale() === 'ko' || !HANGUL.test(children) ? <>{children}</> : <span lang="ko">{children}</span>;
}

/** `parts` with `separator` between them, as one run of text and elements (", ", " · "). */
export function joined(parts: readonly ReactNode[], separator: string): ReactNode {
  return parts.map((part, index) => (
    <Fragment key={index}>
      {index > 0 && separator}
      {part}
    </Fragment>
  ));
}
