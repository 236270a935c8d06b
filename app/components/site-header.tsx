/** The header every route shares (docs/product.md §2): the product name linking to / and the non-affiliation note (docs/product.md §1). */
import { Link } from '@remix-run/react';
import { useT } from '~/i18n/i18n';

/** Product name, used in the header and in page titles. */
export const SITE_NAME = '외대 버스';

/** `inert`: while a blocking modal covers the page (the home's service notice), the header takes no focus or click. */
export function SiteHeader({ inert = false }: { inert?: boolean }) {
  const t = useT();
  return (
    // NOTE: React 18 does not know `inert`; the empty string is the attribute's "on".
    <header className="site-header" {...(inert ? { inert: '' } : {})}>
      <Link to="/" className="site-header__home">
        <img src="/logo.svg" alt="" width="28" height="28" />
        {SITE_NAME}
      </Link>
      <p className="site-header__note">{t('site.note')}</p>
    </header>
  );
}
