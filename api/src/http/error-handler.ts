import type { ErrorRequestHandler, Request, RequestHandler, Response } from 'express';
import { ZodError } from 'zod';
import { apiMessages, formErrorPage, notFoundPage } from '@guida/shared/messages';
import { DeliveryTransitionError } from '@guida/shared/deliveries/delivery-statuses';
import { reportError } from '@guida/shared/server/error-tracker';
import { AppError, badRequest, deliveryRefused, notFound, serviceUnavailable } from '../errors';
import { routeTemplate } from '../metrics';
import { isDatabaseUnavailable, isRefusedCharacter } from './database-errors';
import { sendHtmlPage } from './html-page';
import { sameOriginReferer } from './same-origin-referer';
import { fromStrayZodError } from './validate';

/** Unknown /api routes answer a JSON 404. */
export const apiNotFound: RequestHandler = (_req, _res, next) => next(notFound());

/** Any other unknown path: the site's 404 page, with HTTP 404. */
export const pageNotFound: RequestHandler = (_req, res) => {
  sendHtmlPage(res, 404, {
    title: notFoundPage.title,
    paragraphs: [notFoundPage.text],
    link: { href: '/', label: notFoundPage.backHome },
  });
};

/** A browser's plain form post (no JavaScript) gets an HTML page instead of JSON. */
function wantsHtml(req: Request) {
  return req.is('application/x-www-form-urlencoded') && req.accepts(['json', 'html']) === 'html';
}

/** Body-parser errors carry a `type`; map them to Italian 4xx answers. */
function fromBodyParser(error: { type?: unknown; status?: unknown }): AppError | null {
  switch (error.type) {
    case 'entity.too.large':
      return new AppError(413, 'payload_too_large', apiMessages.payloadTooLarge);
    case 'entity.parse.failed':
      return new AppError(400, 'invalid_json', apiMessages.invalidJson);
    case 'encoding.unsupported':
      // Every parser refuses compressed bodies (inflate: false, decision 053).
      return new AppError(415, 'compressed_body', apiMessages.compressedBody);
    case 'charset.unsupported':
      return new AppError(415, 'unsupported_content', apiMessages.unsupportedContentType);
    default:
      return typeof error.status === 'number' && error.status >= 400 && error.status < 500
        ? new AppError(error.status, 'bad_request', apiMessages.invalidRequest)
        : null;
  }
}

/** The code (`validation_failed`, `rate_limited`, ...) of the error a response answered, for the metrics. */
export const answeredErrorCode = (res: Response): string | undefined => res.locals.errorCode as string | undefined;

/** The one place where errors become answers: `{ message, errors? }`, never a stack trace. */
export const errorHandler: ErrorRequestHandler = (error: unknown, req, res, next) => {
  if (res.headersSent) return next(error);

  let appError: AppError;
  if (error instanceof AppError) appError = error;
  else if (error instanceof DeliveryTransitionError) appError = deliveryRefused(error);
  else if (error instanceof ZodError) appError = fromStrayZodError(error);
  else if (error instanceof URIError || isRefusedCharacter(error)) {
    // Malformed percent-encoding (a cookie, a path) or characters PostgreSQL refuses.
    req.log.warn({ err: (error as Error).message }, 'input refused for its encoding');
    appError = badRequest();
  }
  else if (isDatabaseUnavailable(error)) {
    req.log.error({ err: (error as Error).message }, 'database unavailable');
    appError = serviceUnavailable();
  } else {
    const fromParser = error instanceof Error ? fromBodyParser(error as never) : null;
    if (fromParser) appError = fromParser;
    else {
      req.log.error({ err: error }, 'unhandled error');
      reportError(error, { route: routeTemplate(req) });
      appError = new AppError(500, 'internal_error', apiMessages.internalError);
    }
  }

  res.locals.errorCode = appError.code;
  if (appError.details.retryAfterSeconds) {
    res.set('Retry-After', String(appError.details.retryAfterSeconds));
  }
  if (wantsHtml(req)) {
    const { errors, page } = appError.details;
    sendHtmlPage(res, appError.status, {
      title: page?.title ?? formErrorPage.title,
      paragraphs: errors ? [formErrorPage.intro] : (page?.paragraphs ?? [appError.message]),
      list: errors ? [...new Set(Object.values(errors))] : [],
      link: page?.link ?? { href: sameOriginReferer(req)?.pathname ?? '/', label: formErrorPage.back },
    });
    return;
  }
  res.status(appError.status).json({
    message: appError.message,
    ...(appError.details.errors ? { errors: appError.details.errors } : {}),
    ...(appError.details.challengeRequired ? { challengeRequired: true } : {}),
  });
};
