/**
 * Messages with markup (ADR 032): a catalog message may wrap words in tags, `<link>FAQ</link>`, or
 * hold a self-closing one, `<stops/>`, so a translation keeps its links and emphasis where its own
 * word order puts them. The tags are plain text to the ICU compiler; this turns them into elements.
 */
import { Fragment, type ReactNode } from 'react';

/** A tag's element, given the words it wraps ('' for a self-closing tag). */
export type TagRenderers = Record<string, (words: string) => ReactNode>;

/** `<name>words</name>` or `<name/>`; tags do not nest. */
const TAG = /<(\w+)\/>|<(\w+)>(.*?)<\/\2>/gs;

/**
 * `message` (a formatted message, placeholders already filled) as React nodes: the text between
 * tags as it is, each tag as `tags[name]` renders it. @throws on a tag `tags` has no renderer for,
 * so a catalog and its page cannot drift apart unnoticed.
 */
export function richText(message: string, tags: TagRenderers): ReactNode {
  const nodes: ReactNode[] = [];
  let last = 0;
  for (const match of message.matchAll(TAG)) {
    const name = match[1] ?? match[2];
    const render = tags[name];
    if (!render) throw new Error(`richText: no element for <${name}> in "${message}"`);
    nodes.push(message.slice(last, match.index), <Fragment key={match.index}>{render(match[3] ?? '')}</Fragment>);
    last = match.index + match[0].length;
  }
  nodes.push(message.slice(last));
  return nodes.filter((node) => node !== '');
}
