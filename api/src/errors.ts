import type { DeliveryTransitionError } from '@guida/shared/deliveries/delivery-statuses';
import { adminMessages, apiMessages } from '@guida/shared/messages';

/** An error with an HTTP status and an Italian message safe to show to the visitor. */
export class AppError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details: {
      errors?: Record<string, string>;
      retryAfterSeconds?: number;
      /** Tells the form to solve a proof-of-work and send again (api/src/challenge). */
      challengeRequired?: true;
      /** The no-JavaScript form's page, when it is not about the form's fields (the message, or `paragraphs`). */
      page?: { title: string; paragraphs?: string[]; link: { href: string; label: string } };
    } = {},
  ) {
    super(message);
    this.name = 'AppError';
  }
}

export const validationFailed = (errors: Record<string, string>) =>
  new AppError(400, 'validation_failed', Object.values(errors)[0] ?? apiMessages.invalidRequest, {
    errors,
  });

export const badRequest = (message: string = apiMessages.invalidRequest) =>
  new AppError(400, 'bad_request', message);

export const forbidden = (message: string) => new AppError(403, 'forbidden', message);

export const notFound = (message: string = apiMessages.notFound) =>
  new AppError(404, 'not_found', message);

export const tooManyRequests = (retryAfterSeconds: number) =>
  new AppError(429, 'rate_limited', apiMessages.tooManyRequests, { retryAfterSeconds });

/**
 * 428 without a solution, 403 with one that is invalid, expired or already used; `page`, what
 * a form posted without JavaScript shows instead.
 */
export const challengeRequired = (status: 403 | 428, message: string, page?: AppError['details']['page']) =>
  new AppError(status, 'challenge_required', message, { challengeRequired: true, ...(page ? { page } : {}) });

export const serviceUnavailable = () =>
  new AppError(503, 'service_unavailable', apiMessages.serviceUnavailable);

const IN_PROGRESS_MESSAGE = {
  sms: adminMessages.smsInProgress,
  crm: adminMessages.crmInProgress,
  email: adminMessages.emailInProgress,
  conversion: adminMessages.conversionInProgress,
} as const;

/** A delivery the admin asked to send again is gone (404), on its way or already done (409). */
export function deliveryRefused(error: DeliveryTransitionError) {
  if (error.current === null) return notFound(adminMessages.deliveryNotFound);
  return error.inProgress
    ? new AppError(409, 'delivery_in_progress', IN_PROGRESS_MESSAGE[error.kind])
    : new AppError(409, 'delivery_finished', adminMessages.deliveryFinished);
}
