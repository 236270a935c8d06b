/**
 * The one way the contract's schemas take a string (contract/strings.test.ts walks every exported
 * schema and holds each string in it to this): no string of any form or api body carries NUL
 * (PostgreSQL text cannot store it, and a database error is no answer to a typing mistake), a
 * one-line field carries no control character, line or paragraph separator or bidi control (so a
 * title or a name cannot add lines to an e-mail, or turn the words around it), and free text (a
 * textarea) keeps its tabs and line breaks only. Each builder returns a zod string whose first
 * check is that refusal, so its message comes before any other the field has.
 */
import { z } from 'zod';

type StringParams = Parameters<typeof z.string>[0];

// eslint-disable-next-line no-control-regex -- matching control characters is the point
const NO_NUL = /^[^\u0000]*$/;
/** C0 controls but TAB, LF and CR; DEL; C1 controls. */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const FREE_TEXT = /^[^\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]*$/;
/** Every C0 control (TAB, LF and CR too), DEL, C1; U+2028/U+2029; bidi embeddings, overrides (U+202A–U+202E) and isolates (U+2066–U+2069). */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const ONE_LINE = /^[^\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]*$/;

/** The refusals' messages, in the voice of the forms' other messages. */
export const TEXT_MESSAGES = {
  /** A NUL, or a control character no keyboard types, in free text or a value no person types. */
  invalidCharacter: '입력할 수 없는 문자가 들어 있습니다.',
  /** A line break or a control character in a one-line field, named as its label names it ("제목"). */
  oneLine: (field: string) => `${field}에는 줄바꿈이나 제어 문자를 쓸 수 없습니다.`,
} as const;

/** A string of a payload that no person types (an id, a token, a time, an answer's field): no NUL. */
export function text(params?: StringParams) {
  return z.string(params).regex(NO_NUL, TEXT_MESSAGES.invalidCharacter);
}

/**
 * A one-line field (an input, never a textarea; anything that may go into a header or a line of an
 * e-mail): refused with TEXT_MESSAGES.oneLine(`field`) when it holds a control character, U+2028,
 * U+2029 or a bidi control.
 */
export function oneLineText(field: string, params?: StringParams) {
  return z.string(params).regex(ONE_LINE, TEXT_MESSAGES.oneLine(field));
}

/**
 * A one-line field as a person types it (oneLineText, trimmed first): what surrounds the text (a
 * pasted line break, a tab) goes with the trim, and a field of nothing but whitespace is empty,
 * as docs/product.md §5 has it, rather than refused. `refusal`: the refusal's message, for a form
 * in another language (docs/product.md §1 Languages); TEXT_MESSAGES.oneLine(`field`) otherwise.
 */
export function trimmedLine(field: string, params?: StringParams, refusal = TEXT_MESSAGES.oneLine(field)) {
  return z.string(params).trim().regex(ONE_LINE, refusal);
}

/**
 * Free text (a textarea): tabs and line breaks kept, any other control character refused, with
 * `refusal` (a form in another language) or TEXT_MESSAGES.invalidCharacter.
 */
export function freeText(params?: StringParams, refusal: string = TEXT_MESSAGES.invalidCharacter) {
  return z.string(params).regex(FREE_TEXT, refusal);
}

/** Whether `value` could be a one-line field's (oneLineText): no control character, separator or bidi control. */
export function isOneLine(value: string): boolean {
  return ONE_LINE.test(value);
}
