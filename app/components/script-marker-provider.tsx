/**
 * The marker of a render's own scripts (app/entry.server.tsx): rendered in their nonce attribute,
 * then removed from the page once their hashes are taken for the CSP (ADR 023). In the browser it is ''.
 */
import { createContext, useContext } from 'react';

const ScriptMarkerContext = createContext('');

export const ScriptMarkerProvider = ScriptMarkerContext.Provider;

/** The marker of this render's own scripts: '' in the browser. */
export function useScriptMarker(): string {
  return useContext(ScriptMarkerContext);
}
