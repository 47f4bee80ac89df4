import { zodResolver } from '@hookform/resolvers/zod';
import { ebookRequestCreatedSchema, leadFormSchema } from '@guida/shared/schemas/lead';
import '../../lib/zod-in-browser';

/**
 * The form's shared schema as react-hook-form's resolver, loaded on its own when the
 * visitor first focuses the form (and at the latest on the first submit): zod is the
 * heaviest part of the form, and the first paint needs none of it.
 */
export const leadFormResolver = zodResolver(leadFormSchema);
export const parseCreated = (answer: unknown) => ebookRequestCreatedSchema.parse(answer);
