import { Router, type Request, type RequestHandler, type Response } from 'express';
import { MARKETING_WITHDRAWAL_PATH, marketingWithdrawalPages as pages } from '@guida/shared/marketing-withdrawal';
import { findWithdrawalLink } from '@guida/shared/server/marketing-withdrawal-link';
import { LINK_TOKEN_FORMAT, sha256Hex } from '@guida/shared/server/personal-data-hash';
import type { ApiDeps } from '../dependencies';
import { AppError } from '../errors';
import { clampUserAgent, truncateIp } from '../http/client-ip';
import { sendHtmlPage } from '../http/html-page';
import { createClientRateLimit, networkAllowancesOf } from '../http/rate-limit';
import { withdrawalPending } from './withdrawal.repo';
import { withdrawMarketingConsent } from './withdrawal.service';

const ROUTE = `${MARKETING_WITHDRAWAL_PATH}/:token`;

const alreadyPage = (res: Response) =>
  sendHtmlPage(res, 200, { title: pages.alreadyTitle, paragraphs: [pages.alreadyText], link: pages.home });

/**
 * The link in every email to a lead that withdraws its marketing consent (decision 048).
 * Opening it (GET) shows what it does and one button, and changes nothing: mail scanners
 * and link previews open every link of an email, and a withdrawal must be the person's
 * act. The button, and the mail client's own button (RFC 8058: a POST of
 * "List-Unsubscribe=One-Click" to the List-Unsubscribe address), POST to the same address,
 * which withdraws at once. The body is never read (a compressed one is refused before, as
 * on every write): any POST to a valid link withdraws, and the token is the only authority
 * needed, so there is no same-site check (webmails may post from their own pages) and no
 * anti-robot check (decision 053). A second withdrawal says it is already done. No login.
 */
export function marketingWithdrawalRouter(deps: ApiDeps) {
  const { config } = deps;
  const perClient = createClientRateLimit({
    redis: deps.redis,
    keyPrefix: `${config.REDIS_KEY_PREFIX}:rl:marketing-withdrawal`,
    points: config.WITHDRAWAL_RATE_LIMIT_PER_IP,
    durationSeconds: 3600,
    networks: networkAllowancesOf(config),
  });
  const router = Router();

  // The address holds the token: pages linked from here must not receive it.
  const tokenPage: RequestHandler = async (req, res, next) => {
    res.set({ 'Referrer-Policy': 'no-referrer', 'X-Robots-Tag': 'noindex, nofollow' });
    try {
      await perClient.consume(req.ip);
    } catch (error) {
      if (!(error instanceof AppError) || error.status !== 429) throw error;
      res.set('Retry-After', String(error.details.retryAfterSeconds ?? 60));
      sendHtmlPage(res, 429, { title: pages.tooManyTitle, paragraphs: [pages.tooManyText], link: pages.home });
      return;
    }
    next();
  };

  /** The link's lead, or null once the answer (404 or 410 page) is sent. */
  const linkedLead = async (req: Request, res: Response): Promise<number | null> => {
    const token = String(req.params.token);
    const link = LINK_TOKEN_FORMAT.test(token) ? await findWithdrawalLink(deps.db, sha256Hex(token)) : undefined;
    if (!link) {
      sendHtmlPage(res, 404, { title: pages.invalidTitle, paragraphs: [pages.invalidText], link: pages.home });
      return null;
    }
    if (link.expires_at.getTime() <= Date.now()) {
      sendHtmlPage(res, 410, { title: pages.expiredTitle, paragraphs: [pages.expiredText], link: pages.privacy });
      return null;
    }
    return link.lead_id;
  };

  router.get(ROUTE, tokenPage, async (req, res) => {
    const leadId = await linkedLead(req, res);
    if (leadId === null) return;
    if (!(await withdrawalPending(deps.db, config.SUPPRESSION_HASH_SECRET, leadId))) {
      alreadyPage(res);
      return;
    }
    sendHtmlPage(res, 200, {
      title: pages.confirmTitle,
      paragraphs: [pages.confirmText, pages.confirmNote],
      form: { action: req.originalUrl.split('?')[0]!, label: pages.confirmButton },
      link: pages.home,
    });
  });

  router.post(ROUTE, tokenPage, async (req, res) => {
    const leadId = await linkedLead(req, res);
    if (leadId === null) return;
    const result = await withdrawMarketingConsent(deps, req.log, leadId, {
      source: 'email',
      ipAddress: truncateIp(req.ip),
      userAgent: clampUserAgent(req.get('user-agent')),
    });
    // The lead of a valid link exists (its row goes with the lead): not_found is a race with an erasure.
    if (result.outcome !== 'withdrawn') {
      alreadyPage(res);
      return;
    }
    sendHtmlPage(res, 200, {
      title: pages.withdrawnTitle,
      paragraphs: [pages.withdrawnText, pages.withdrawnNote],
      link: pages.home,
    });
  });

  return router;
}
