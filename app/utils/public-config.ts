/**
 * What pages may show of the web's configuration (public values reach the browser through
 * one explicit object): built once by server.ts from the env (env.server.ts publicConfigOf) and
 * handed to loaders as AppLoadContext.publicConfig. Nothing secret.
 */
export type PublicConfig = {
  /** docs/product.md §2: the transfer account for ad fees; null until it is configured. */
  bankAccount: { bank: string; number: string; holder: string } | null;
  /** The third-party ad slots (docs/product.md §2), each null unless configured. */
  adSlots: { adfitUnit: string | null; adsense: { client: string; slot: string } | null };
  /** docs/product.md §2/§9: the privacy officer on /privacypolicy (PRIVACY_OFFICER_*); null → the page points to /contact. */
  privacyOfficer: { name: string; email: string } | null;
  /** The Google Analytics 4 measurement id (ANALYTICS_ID, "G-…"); null → no analytics at all. */
  analyticsId: string | null;
};
