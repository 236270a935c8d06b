/**
 * The home screen's rotating ad banner (docs/product.md §2.3 Home screen, §3.4 Ad banner, §4.3 Ad banner,
 * §9): the in-period web ads in the admins' order, one every 6 seconds, paused while the page is
 * hidden and by the visitor (WCAG 2.2.2); each new ad slides in, except with
 * prefers-reduced-motion. Its box keeps the web ad's 350×100 shape whatever loads, so nothing
 * shifts. A click opens the ad's http(s) link in a new tab through the counting redirect; without
 * ads (or when their list failed) the default banner invites shops to advertise. Each image is
 * marked with the language its advertiser wrote the title in (`lang`, Korean when the api names
 * none; docs/product.md §1 Languages): the alternative text is that title, never translated.
 */
import { Link } from '@remix-run/react';
import { useEffect, useState } from 'react';
import { type AdBanner as Ad } from '../../contract/ads';
import { isHttpUrl } from '../../contract/links';
import { priceWon } from '../../contract/prices';
import { formatCount } from '../../contract/korean-format';
import { useT } from '~/i18n/i18n';
import home from '~/i18n/compiled/ko/home.js';
import { formatKstDate } from '../../contract/kst';

/** docs/product.md §4, §9: rotation period. */
export const BANNER_ROTATION_MS = 6_000;

/** Where a banner's click goes: the counting redirect when the api gave an id, else its own link; null when it has no http(s) link. */
export function bannerHref(ad: Ad): string | null {
  if (!isHttpUrl(ad.url)) return null;
  return ad.id === undefined ? ad.url : `/ads/click/${ad.id}`;
}

export function AdBanner({ ads }: { ads: readonly Ad[] }) {
  const t = useT(home);
  const shown = ads.filter((ad) => ad.src);
  const [index, setIndex] = useState(0);
  const [paused, setPaused] = useState(false);
  const [hidden, setHidden] = useState(false);
  // The slide-in plays from the first rotation on, not on page load (no motion before the ad is read).
  const [rotated, setRotated] = useState(false);
  const count = shown.length;

  useEffect(() => {
    const update = () => setHidden(document.visibilityState === 'hidden');
    update();
    document.addEventListener('visibilitychange', update);
    return () => document.removeEventListener('visibilitychange', update);
  }, []);

  useEffect(() => {
    if (count < 2 || paused || hidden) return;
    const timer = setInterval(() => {
      setIndex((current) => (current + 1) % count);
      setRotated(true);
    }, BANNER_ROTATION_MS);
    return () => clearInterval(timer);
  }, [count, paused, hidden]);

  const current = count > 0 ? shown[index % count] : undefined;
  useEffect(() => {
    // Read the page's own state: on the first render `hidden` has not caught up with a background tab yet.
    if (current?.id !== undefined && document.visibilityState === 'visible') countImpression(current.id);
  }, [current?.id, hidden]);

  if (count === 0) return <DefaultBanner />;
  return (
    <section
      className={rotated ? 'ad-banner ad-banner--rotated' : 'ad-banner'}
      aria-roledescription="carousel"
      aria-label={t('ad.label')}
    >
      <div className="ad-banner__slides">
        {shown.map((ad, slide) => {
          const href = bannerHref(ad);
          const image = (
            <img
              lang={ad.lang ?? 'ko'}
              src={ad.src}
              alt={ad.title ? t('ad.alt', { title: ad.title }) : t('ad.label')}
              width={350}
              height={100}
            />
          );
          return (
            <div
              key={ad.id ?? ad.src}
              className="ad-banner__slide"
              role="group"
              aria-roledescription="slide"
              aria-label={`${slide + 1} / ${count}`}
              hidden={slide !== index % count}
            >
              {href ? (
                <a href={href} target="_blank" rel="noopener noreferrer">
                  {image}
                  <span className="sr-only">{t('ad.newWindow')}</span>
                </a>
              ) : (
                image
              )}
            </div>
          );
        })}
      </div>
      {count > 1 && (
        <button
          type="button"
          className="ad-banner__pause"
          aria-label={paused ? t('ad.resume') : t('ad.pause')}
          onClick={() => setPaused((value) => !value)}
        >
          <span aria-hidden="true">{paused ? '▶' : '❚❚'}</span>
        </button>
      )}
    </section>
  );
}

/** docs/product.md §3: the banner shown when there is no ad: an invitation to advertise. */
function DefaultBanner() {
  const t = useT(home);
  const price = t('money.won', { amount: formatCount(priceWon(1)) });
  return (
    <section className="ad-banner ad-banner--default" aria-label={t('ad.label')}>
      <Link to="/ads/apply" className="ad-banner__invite">
        <strong>{t('ad.inviteTitle')}</strong>
        <span>
          {t('ad.invite', { price })}
          <span className="ad-banner__cta">{t('ad.apply')}</span>
        </span>
      </Link>
    </section>
  );
}

/** localStorage key of the ads already counted today: `{ day, ids }` (KST day). */
const SEEN_KEY = 'campus-bus:ad-impressions';

/**
 * Sends the impression beacon of ad `id` the first time this browser shows it on a KST day
 * (docs/product.md §4; one per ad per visitor per day). Storage failures only mean it may count twice.
 */
function countImpression(id: number): void {
  const day = formatKstDate(Date.now());
  let seen: { day: string; ids: number[] } = { day, ids: [] };
  try {
    const stored = JSON.parse(localStorage.getItem(SEEN_KEY) ?? 'null') as typeof seen | null;
    if (stored?.day === day && Array.isArray(stored.ids)) seen = stored;
  } catch {
    // unreadable storage: count it
  }
  if (seen.ids.includes(id)) return;
  navigator.sendBeacon('/ads/impressions', new URLSearchParams({ id: String(id) }));
  try {
    localStorage.setItem(SEEN_KEY, JSON.stringify({ day, ids: [...seen.ids, id] }));
  } catch {
    // private mode or full storage
  }
}
