import { access } from 'node:fs/promises';
import path from 'node:path';
import { Router } from 'express';
import { guideLinkPages as pages } from '@guida/shared/messages';
import type { ApiDeps } from '../dependencies';
import { sendHtmlPage } from '../http/html-page';
import { findDownloadToken, recordDownload } from './guide.repo';

const TOKEN_FORMAT = /^[A-Za-z0-9_-]{16,64}$/;
const home = { href: '/', label: pages.backHome };

/** GET /g/:token: the personal link sent by SMS serves the guide PDF of the lead's type. */
export function guideRouter(deps: ApiDeps) {
  const guidesDir = path.resolve(deps.config.GUIDES_DIR);
  const router = Router();

  router.get('/g/:token', async (req, res) => {
    const token = req.params.token;
    const row = TOKEN_FORMAT.test(token) ? await findDownloadToken(deps.db, token) : undefined;
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
    await recordDownload(deps.db, row);
    req.log.info({ leadId: row.lead_id }, 'guide downloaded');
    res.set({
      'Cache-Control': 'private, no-store',
      'X-Robots-Tag': 'noindex, nofollow',
      'Content-Disposition': 'inline; filename="guida-gratuita.pdf"',
    });
    res.type('application/pdf').sendFile(file);
  });
  return router;
}
