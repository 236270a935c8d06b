/// <reference types="@remix-run/dev" />
/// <reference types="@remix-run/node" />

// react-dom 18 ships its web-streams server build as react-dom/server.browser; @types/react-dom
// declares its API under react-dom/server (app/entry.server.tsx says why it is used).
declare module 'react-dom/server.browser' {
  export { renderToReadableStream } from 'react-dom/server';
}
