/**
 * The marker of a render's own scripts (app/entry.server.tsx): rendered as their nonce, then
 * removed from the page once their hashes are taken for the CSP (ADR 023). In the browser it is ''.
 */
import { createContext, useContext } from 'react';

const NonceContext = createContext('');

export const NonceProvider = NonceContext.Provider;

export function useNonce(): string {
  return useContext(NonceContext);
}
