/**
 * Google Analytics 4, optional (the privacy policy's "cookies and analytics"): the gtag.js
 * loader and its inline configuration, rendered in the document head only when ANALYTICS_ID is
 * set (PublicConfig.analyticsId, which root's loader hands to the layout). Unset, nothing is
 * rendered and the CSP allows no Google host (app/server/csp.server.ts). Both scripts carry the
 * render's marker, so the inline one is allowed by its hash (ADR 023). Page views of client-side navigations are GA4's own enhanced measurement
 * (browser history events), so nothing here runs per navigation.
 */
import { useScriptMarker } from '~/components/script-marker-provider';

export function Analytics({ measurementId }: { measurementId: string | null }) {
  const marker = useScriptMarker();
  if (!measurementId) return null;
  // Google's snippet. The id is a validated "G-[A-Z0-9]+" (env.server.ts), JSON-encoded all the same.
  const config = [
    'window.dataLayer = window.dataLayer || [];',
    'function gtag(){dataLayer.push(arguments);}',
    "gtag('js', new Date());",
    `gtag('config', ${JSON.stringify(measurementId)});`,
  ].join('\n');
  return (
    <>
      <script
        async
        src={`https://www.googletagmanager.com/gtag/js?id=${encodeURIComponent(measurementId)}`}
        nonce={marker}
      />
      <script nonce={marker} dangerouslySetInnerHTML={{ __html: config }} />
    </>
  );
}
