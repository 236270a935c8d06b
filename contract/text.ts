/** Text as forms post it, free of zod: the pages import it at run time. */

/**
 * A textarea's line breaks as one LF each: a browser submits each as CRLF (two characters), while
 * its `maxlength` counts one, so a text of the most characters typed with line breaks still passes.
 */
export function normalizeLineBreaks(text: string): string {
  return text.replace(/\r\n?/g, '\n');
}
