import { z } from 'zod';
import { isTouchValue, TOUCH_FIELDS, type Touch, type TouchField } from '../attribution-rules';
import { validationMessages as m } from '../messages';
import { safeText } from '../text-rules';

/**
 * A touch (attribution-rules.ts) as the API accepts it: each field optional, blank means
 * none, and a value that breaks its field's rule (length, characters) is refused.
 */
const touchValue = (field: TouchField) =>
  safeText(m.campaign)
    .trim()
    .refine((value) => value === '' || isTouchValue(field, value), { error: m.campaign })
    .nullish()
    .transform((value) => value || null);

export const touchShape = Object.fromEntries(TOUCH_FIELDS.map((field) => [field, touchValue(field)])) as {
  [F in TouchField]: ReturnType<typeof touchValue>;
};

export const touchSchema = z.object(touchShape, { error: m.campaign });
export type TouchInput = z.input<typeof touchSchema>;
export type { Touch };
