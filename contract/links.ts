/** Which links the product opens, free of zod: the pages import it at run time and zod stays out of their bundles. */

/** True for an absolute http: or https: URL: the only links the product opens (banner, admin link-open). */
export function isHttpUrl(value: string): boolean {
  try {
    const { protocol } = new URL(value);
    return protocol === 'http:' || protocol === 'https:';
  } catch {
    return false;
  }
}
