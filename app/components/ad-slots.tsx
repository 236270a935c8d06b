/**
 * The two third-party ad slots of the home screen (docs/product.md §2): Kakao AdFit and Google AdSense, each
 * rendered only when its ids are configured (the vendors' own embed codes). Each slot's height is reserved,
 * so a late ad never shifts the page; with neither configured nothing is loaded from a third party
 * (the edge adds their hosts to the CSP only then).
 */
import { useEffect } from 'react';
import type { PublicConfig } from '~/utils/public-config';

const ADFIT_SCRIPT = 'https://t1.daumcdn.net/kas/static/ba.min.js';
const ADSENSE_SCRIPT = 'https://pagead2.googlesyndication.com/pagead/js/adsbygoogle.js';

declare global {
  interface Window {
    adsbygoogle?: unknown[];
  }
}

export function AdSlots({ slots }: { slots: PublicConfig['adSlots'] }) {
  if (!slots.adfitUnit && !slots.adsense) return null;
  return (
    <aside className="ad-slots" aria-label="제휴 광고">
      {slots.adfitUnit && <AdFitSlot unit={slots.adfitUnit} />}
      {slots.adsense && <AdSenseSlot client={slots.adsense.client} slot={slots.adsense.slot} />}
    </aside>
  );
}

/**
 * Kakao AdFit 320×50 (AdFit's embed code): the `ins` plus its loader, which fills the `ins` it finds when
 * it runs, so it is added again each time the slot mounts (a return to the home page).
 */
function AdFitSlot({ unit }: { unit: string }) {
  useEffect(() => {
    const script = addScript(ADFIT_SCRIPT);
    return () => script.remove();
  }, []);
  return (
    <div className="ad-slot ad-slot--adfit">
      <ins
        className="kakao_ad_area"
        style={{ display: 'none' }}
        data-ad-unit={unit}
        data-ad-width="320"
        data-ad-height="50"
      />
    </div>
  );
}

/** Google AdSense 320×100 (AdSense's embed code): the `ins`, the loader, then one push per slot. */
function AdSenseSlot({ client, slot }: { client: string; slot: string }) {
  useEffect(() => {
    const src = `${ADSENSE_SCRIPT}?client=${encodeURIComponent(client)}`;
    // adsbygoogle.js stays loaded and fills each pushed slot.
    if (!document.querySelector(`script[src="${src}"]`)) addScript(src).crossOrigin = 'anonymous';
    (window.adsbygoogle = window.adsbygoogle || []).push({});
  }, [client]);
  return (
    <div className="ad-slot ad-slot--adsense">
      <ins
        className="adsbygoogle"
        style={{ display: 'inline-block', width: 320, height: 100 }}
        data-ad-client={client}
        data-ad-slot={slot}
      />
    </div>
  );
}

/** Adds an async script (its host is allowed by the CSP only when its slot is configured). */
function addScript(src: string): HTMLScriptElement {
  const script = document.createElement('script');
  script.async = true;
  script.src = src;
  document.head.append(script);
  return script;
}
