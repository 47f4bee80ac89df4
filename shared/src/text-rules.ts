import { z } from 'zod';
import { validationMessages as m } from './messages';

/**
 * C0 control characters (and DEL) other than tab, line feed and carriage return. A NUL
 * makes PostgreSQL refuse a whole batch; the others have no place in a name, a path or a
 * message and can hide text in logs and spreadsheets. Carriage return stays allowed
 * because browsers send a textarea's line breaks as CR LF in form posts.
 */
// eslint-disable-next-line no-control-regex -- finding control characters is the point
const CONTROL_CHARACTER = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/;

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** True when `text` holds a character no visitor's free text may hold. */
export function hasControlCharacter(text: string): boolean {
  return CONTROL_CHARACTER.test(text);
}

/**
 * A lone UTF-16 surrogate (`"\ud800"` in JSON) is no character at all: PostgreSQL refuses
 * it in a jsonb value, as it refuses NUL in text.
 */
export function hasLoneSurrogate(text: string): boolean {
  return LONE_SURROGATE.test(text);
}

/**
 * The one text rule for free-text fields from the outside world: a string without control
 * characters or lone surrogates. Use it instead of `z.string()` for every field a visitor
 * or an admin types.
 */
export function safeText(message: string = m.controlCharacters) {
  return z
    .string({ error: message })
    .refine((value) => !hasControlCharacter(value) && !hasLoneSurrogate(value), {
      error: m.controlCharacters,
      abort: true,
    });
}
