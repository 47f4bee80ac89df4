import { access } from 'node:fs/promises';
import path from 'node:path';
import { Router, type Request } from 'express';
import { deliverToCrmJob } from '@guida/shared/jobs/crm';
import { guideLinkPages as pages } from '@guida/shared/messages';
import { sha256Hex } from '@guida/shared/server/personal-data-hash';
import type { ApiDeps } from '../dependencies';
import { clampUserAgent, truncateIp } from '../http/client-ip';
import { sendHtmlPage } from '../http/html-page';
import { findDownloadToken, recordDownload } from './guide.repo';

const TOKEN_FORMAT = /^[A-Za-z0-9_-]{16,64}$/;
const home = { href: '/', label: pages.backHome };

/**
 * User agents of link previews (chat apps and social sites fetch a link when it is
 * shared or pasted) and crawlers: they may fetch the PDF, but they are not a reader.
 */
const PREVIEW_OR_CRAWLER =
  /whatsapp|telegrambot|facebookexternalhit|facebot|meta-externalagent|slackbot|slack-imgproxy|twitterbot|linkedinbot|discordbot|skypeuripreview|pinterestbot|redditbot|applebot|googlebot|bingbot|embedly|iframely|(^|[^a-z])bot\b|crawler|spider/i;

/**
 * A request that is a reader downloading the guide: not a HEAD, not a Range request (a
 * PDF viewer fetching parts of a file it already asked for, or a resumed download), not
 * a link preview or crawler.
 */
function isReaderDownload(req: Request) {
  if (req.method !== 'GET' || req.get('range') !== undefined) return false;
  return !PREVIEW_OR_CRAWLER.test(req.get('user-agent') ?? '');
}

/**
 * The visitor a download is counted for: the address as stored with a lead (truncated)
 * and the user agent, hashed.
 */
const visitorHash = (req: Request) => sha256Hex(`${truncateIp(req.ip) ?? ''}|${clampUserAgent(req.get('user-agent')) ?? ''}`);

/** GET /g/:token: the personal link sent by SMS serves the guide PDF of the lead's type. */
export function guideRouter(deps: ApiDeps) {
  const guidesDir = path.resolve(deps.config.GUIDES_DIR);
  const router = Router();

  router.get('/g/:token', async (req, res) => {
    // The address holds the token: pages linked from here must not receive it.
    res.set('Referrer-Policy', 'no-referrer');
    const token = req.params.token;
    const row = TOKEN_FORMAT.test(token) ? await findDownloadToken(deps.db, sha256Hex(token)) : undefined;
    if (!row) {
      sendHtmlPage(res, 404, { title: pages.notFoundTitle, paragraphs: [pages.notFoundText], link: home });
      return;
    }
    if (row.expires_at.getTime() <= Date.now()) {
      sendHtmlPage(res, 410, { title: pages.expiredTitle, paragraphs: [pages.expiredText], link: home });
      return;
    }
    const file = path.join(guidesDir, `${row.ebook_type}.pdf`);
    try {
      await access(file);
    } catch {
      req.log.error({ leadId: row.lead_id, ebookType: row.ebook_type }, 'guide PDF missing');
      sendHtmlPage(res, 503, {
        title: pages.unavailableTitle,
        paragraphs: [pages.unavailableText],
        link: home,
      });
      return;
    }
    if (isReaderDownload(req)) {
      const crmDeliveryId = await recordDownload(deps.db, row, visitorHash(req));
      req.log.info({ leadId: row.lead_id }, 'guide downloaded');
      // Committed with the download: if Redis is down, the sweeper enqueues it.
      if (crmDeliveryId !== null) {
        await deps.queues
          .enqueue(deliverToCrmJob, { deliveryId: crmDeliveryId, leadId: row.lead_id, event: 'lead.guide_opened' })
          .catch((error: unknown) => {
            req.log.warn({ leadId: row.lead_id, err: (error as Error).message }, 'lead.guide_opened not enqueued; the sweeper will');
          });
      }
    }
    res.set({
      'Cache-Control': 'private, no-store',
      'X-Robots-Tag': 'noindex, nofollow',
      'Content-Disposition': 'inline; filename="guida-gratuita.pdf"',
    });
    res.type('application/pdf').sendFile(file);
  });
  return router;
}
