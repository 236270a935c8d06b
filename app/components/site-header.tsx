/** The header every route shares (docs/product.md §2): the product name linking to / and the non-affiliation note (docs/product.md §1). */
import { Link } from '@remix-run/react';

/** Product name, used in the header and in page titles. */
export const SITE_NAME = '외대 버스';

/** `inert`: while a blocking modal covers the page (the home's service notice), the header takes no focus or click. */
export function SiteHeader({ inert = false }: { inert?: boolean }) {
  return (
    // NOTE: React 18 does not know `inert`; the empty string is the attribute's "on".
    <header className="site-header" {...(inert ? { inert: '' } : {})}>
      <Link to="/" className="site-header__home">
        <img src="/logo.svg" alt="" width="28" height="28" />
        {SITE_NAME}
      </Link>
      <p className="site-header__note">본 서비스는 한국외국어대학교와 무관합니다.</p>
    </header>
  );
}
