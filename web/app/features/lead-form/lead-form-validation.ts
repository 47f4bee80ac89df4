import { ebookRequestCreatedSchema, leadFormSchema } from '@guida/shared/schemas/lead';
import { formValidator } from '../../lib/form-validation';

/**
 * The form's validation with the shared schema. Loaded on its own after the page is
 * interactive (and at the latest on the first submit): zod is the heaviest part of the
 * form and nothing needs it for the first paint.
 */
export const validateLeadForm = formValidator(leadFormSchema);
export const parseCreated = (answer: unknown) => ebookRequestCreatedSchema.parse(answer);
