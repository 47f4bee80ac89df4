import { Router, type Request, type Response } from 'express';
import { gdprMessages } from '@guida/shared/gdpr-messages';
import { gdprPages as pages } from '@guida/shared/gdpr-server-texts';
import { GDPR_REQUEST_TYPE_LABELS, GDPR_REQUEST_UNCONFIRMED } from '@guida/shared/gdpr-rules';
import { HONEYPOT_FIELD } from '@guida/shared/lead-rules';
import { apiMessages } from '@guida/shared/messages';
import { gdprRequestSchema } from '@guida/shared/schemas/gdpr';
import { LINK_TOKEN_FORMAT, mailboxHash, sha256Hex } from '@guida/shared/server/personal-data-hash';
import { requireChallengeWhenBusy } from '../challenge';
import type { ApiDeps } from '../dependencies';
import { badRequest } from '../errors';
import { clampUserAgent, truncateIp } from '../http/client-ip';
import { sendHtmlPage } from '../http/html-page';
import { isFormPost, publicIntake } from '../http/public-intake';
import { createRateLimit } from '../http/rate-limit';
import { parseOrThrow } from '../http/validate';
import {
  confirmDataRequest,
  findExportByToken,
  findRequestByConfirmToken,
  recordExportDownload,
  type ConfirmableRequest,
} from './gdpr.repo';
import { submitDataRequest } from './gdpr.service';

/** An email, a request type and at most 2,000 characters of details. */
const GDPR_BODY_LIMIT = '16kb';

const invalidLink = (res: Response) =>
  sendHtmlPage(res, 404, {
    title: pages.invalidLinkTitle,
    paragraphs: [pages.invalidLinkText],
    link: pages.backToRights,
  });

const expiredLink = (res: Response, text: string) =>
  sendHtmlPage(res, 410, { title: pages.expiredLinkTitle, paragraphs: [text], link: pages.backToRights });

/** The token's hash, when it looks like one of ours (anything else is not looked up). */
const tokenHash = (token: string) => (LINK_TOKEN_FORMAT.test(token) ? sha256Hex(token) : null);

/**
 * The visitor's side of the data rights: the /gdpr form's request (JSON, or a plain form
 * post without JavaScript), the emailed confirmation link, and the emailed export link.
 */
export function gdprRouter(deps: ApiDeps) {
  const { config } = deps;
  const intake = publicIntake(deps, {
    name: 'gdpr-ip',
    accepts: ['json', 'form'],
    bodyLimit: GDPR_BODY_LIMIT,
    rateLimit: { points: config.GDPR_RATE_LIMIT_PER_IP, durationSeconds: 3600 },
  });
  // Keyed by the hash of the mailbox (a+1@ and a@ are one mailbox): no address sits in Redis.
  const perEmail = createRateLimit({
    redis: deps.redis,
    keyPrefix: `${config.REDIS_KEY_PREFIX}:rl:gdpr-email`,
    points: config.GDPR_RATE_LIMIT_PER_EMAIL,
    durationSeconds: 24 * 3600,
  });
  // The page a plain form post gets when the anti-robot check is demanded (decision 053).
  const challengedForm = { href: () => pages.requestForm, note: pages.challengeAlternative };
  const router = Router();

  // These pages carry a personal token in their address: a link followed from them (back
  // to /gdpr, whose analytics record the referrer) must not take the token along.
  router.use(['/gdpr/conferma/:token', '/gdpr/export/:token'], (_req, res, next) => {
    res.set('Referrer-Policy', 'no-referrer');
    next();
  });

  router.post('/api/gdpr/requests', ...intake, requireChallengeWhenBusy(deps, challengedForm), async (req, res) => {
    const body = req.body as Record<string, unknown>;
    const honeypot = body[HONEYPOT_FIELD];
    if (typeof honeypot === 'string' ? honeypot.trim() !== '' : honeypot != null) {
      req.log.warn('honeypot field filled in: data request refused');
      throw badRequest(apiMessages.honeypot);
    }
    const request = parseOrThrow(gdprRequestSchema, body);
    await perEmail.consume(mailboxHash(request.email));
    await submitDataRequest({ db: deps.db, queues: deps.queues, logger: req.log }, request, {
      ipAddress: truncateIp(req.ip),
      userAgent: clampUserAgent(req.get('user-agent')),
    });
    if (isFormPost(req) && req.accepts(['json', 'html']) === 'html') {
      sendHtmlPage(res, 202, {
        title: pages.receivedTitle,
        paragraphs: [gdprMessages.requestReceived],
        link: pages.backToRights,
      });
      return;
    }
    res.status(202).json({ message: gdprMessages.requestReceived });
  });

  // Opening the link only shows what it would confirm; the button (a POST) confirms.
  // Mail scanners that open every link must not confirm a deletion on their own.
  const confirmable = async (req: Request, res: Response): Promise<ConfirmableRequest | null> => {
    const hash = tokenHash(String(req.params.token));
    const request = hash ? await findRequestByConfirmToken(deps.db, hash) : undefined;
    if (!request) {
      invalidLink(res);
      return null;
    }
    if (request.status !== GDPR_REQUEST_UNCONFIRMED) {
      sendHtmlPage(res, 200, {
        title: pages.confirmedTitle,
        paragraphs: [pages.alreadyConfirmedText],
        link: pages.backToRights,
      });
      return null;
    }
    if (!request.confirm_expires_at || request.confirm_expires_at.getTime() <= Date.now()) {
      expiredLink(res, pages.confirmExpiredText);
      return null;
    }
    return request;
  };

  router.get('/gdpr/conferma/:token', async (req, res) => {
    const request = await confirmable(req, res);
    if (!request) return;
    res.set('X-Robots-Tag', 'noindex, nofollow');
    sendHtmlPage(res, 200, {
      title: pages.confirmTitle,
      paragraphs: [
        pages.confirmText(GDPR_REQUEST_TYPE_LABELS[request.request_type]),
        ...(request.request_type === 'deletion' ? [pages.confirmDeletionWarning] : []),
      ],
      form: { action: req.originalUrl.split('?')[0]!, label: pages.confirmButton },
      link: pages.backToRights,
    });
  });

  router.post('/gdpr/conferma/:token', async (req, res) => {
    const request = await confirmable(req, res);
    if (!request) return;
    if (!(await confirmDataRequest(deps.db, request.id))) {
      // Confirmed by a parallel click, or expired this very second.
      sendHtmlPage(res, 200, { title: pages.confirmedTitle, paragraphs: [pages.alreadyConfirmedText], link: pages.backToRights });
      return;
    }
    req.log.info({ dataRequestId: request.id }, 'data request confirmed');
    sendHtmlPage(res, 200, { title: pages.confirmedTitle, paragraphs: [pages.confirmedText], link: pages.backToRights });
  });

  router.get('/gdpr/export/:token', async (req, res) => {
    const format = req.query.format === 'csv' ? 'csv' : 'json';
    const hash = tokenHash(String(req.params.token));
    const exported = hash ? await findExportByToken(deps.db, hash, format) : undefined;
    if (!exported) {
      invalidLink(res);
      return;
    }
    if (!exported.expires_at || exported.expires_at.getTime() <= Date.now()) {
      expiredLink(res, pages.exportExpiredText);
      return;
    }
    await recordExportDownload(deps.db, exported.id);
    req.log.info({ exportId: exported.id, format }, 'personal data export downloaded');
    res.set({
      'Cache-Control': 'private, no-store',
      'X-Robots-Tag': 'noindex, nofollow',
      'Content-Disposition': `attachment; filename="dati-personali.${format}"`,
    });
    res.type(format === 'csv' ? 'text/csv; charset=utf-8' : 'application/json; charset=utf-8').send(exported.body);
  });

  return router;
}
