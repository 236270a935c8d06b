/** The header every route shares (docs/product.md §2): the product name linking to / and the non-affiliation note (docs/product.md §1). */
import { Link, useLocation } from '@remix-run/react';
import { useLocale, useT } from '~/i18n/i18n';
import common from '~/i18n/compiled/ko/common.js';
import { LANGUAGE_NAMES } from '../../contract/locales';

/** Product name in Korean (the catalog's `site.name`): the admin pages' titles (the public ones read it by language). */
export const SITE_NAME = common['site.name']();

/**
 * `inert`: while a blocking modal covers the page (the home's service notice), the header takes no
 * focus or click. On every page but the admin pages (Korean only), the language switch: a plain
 * link to the other language (/language/:locale), named in that language, back to this page.
 */
export function SiteHeader({ inert = false }: { inert?: boolean }) {
  const t = useT(common);
  const locale = useLocale();
  const { pathname, search } = useLocation();
  const other = locale === 'ko' ? 'en' : 'ko';
  const back = encodeURIComponent(`${pathname}${search}`);
  return (
    // NOTE: React 18 does not know `inert`; the empty string is the attribute's "on".
    <header className="site-header" {...(inert ? { inert: '' } : {})}>
      <div className="site-header__bar">
        <Link to="/" className="site-header__home">
          <img src="/logo.svg" alt="" width="28" height="28" />
          {t('site.name')}
        </Link>
        {pathname.startsWith('/admin-only') ? null : (
          <a className="site-header__language" href={`/language/${other}?back=${back}`} lang={other} hrefLang={other}>
            {LANGUAGE_NAMES[other]}
          </a>
        )}
      </div>
      <p className="site-header__note">{t('site.note')}</p>
    </header>
  );
}
