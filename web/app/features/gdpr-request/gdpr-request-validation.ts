import { gdprRequestAcceptedSchema, gdprRequestFormSchema } from '@guida/shared/schemas/gdpr';
import { formValidator } from '../../lib/form-validation';

/**
 * The /gdpr form's validation with the shared schema, loaded on its own once the visitor
 * reaches the form (and at the latest on submit): zod stays off the page's first load.
 */
export const validateGdprRequest = formValidator(gdprRequestFormSchema);
export const parseAccepted = (answer: unknown) => gdprRequestAcceptedSchema.parse(answer);
