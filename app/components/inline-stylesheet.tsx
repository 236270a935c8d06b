/**
 * The app stylesheet (app/styles/app.css, 21 KB, 6 KB gzipped) inlined in each document's head, so
 * that the first paint waits for no request (a fast Largest Contentful Paint on /). entry.server.tsx
 * provides its text; in the browser the context is '' and hydration leaves the server's <style> as
 * it is (React does not rewrite a hydrated element's innerHTML), and since the value never changes
 * afterwards, no render touches it.
 */
import { createContext, useContext } from 'react';

const StylesheetContext = createContext('');

export const StylesheetProvider = StylesheetContext.Provider;

export function InlineStylesheet() {
  const css = useContext(StylesheetContext);
  return <style dangerouslySetInnerHTML={{ __html: css }} suppressHydrationWarning />;
}
