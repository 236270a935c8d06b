/**
 * The per-request CSP nonce (AppLoadContext.cspNonce, set by server.ts) for the inline scripts
 * Remix renders. entry.server.tsx provides it; in the browser it is '' (browsers hide nonces).
 */
import { createContext, useContext } from 'react';

const NonceContext = createContext('');

export const NonceProvider = NonceContext.Provider;

export function useNonce(): string {
  return useContext(NonceContext);
}
