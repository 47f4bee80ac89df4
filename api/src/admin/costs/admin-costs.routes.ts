import { randomUUID } from 'node:crypto';
import express, { Router, type RequestHandler } from 'express';
import { AD_SPEND_MAX_BYTES, adSpendCsvMessages, parseAdSpendCsv } from '@guida/shared/ad-spend/ad-spend-csv';
import { adSpendListQuerySchema, type AdSpendImport } from '@guida/shared/schemas/admin-costs';
import type { ApiDeps } from '../../dependencies';
import { AppError } from '../../errors';
import { parseOrThrow } from '../../http/validate';
import { operatorDay } from '../reports/report-range';
import { signedIn } from '../admin-auth';
import { auditAdminAction } from '../audit-log';
import { importAdSpend, listAdSpend } from './ad-spend.repo';

/** What the import reads: the file as sent, `text/csv` (or `text/plain`), never inflated (decision 053). */
const CSV_TYPES = ['text/csv', 'text/plain'];
const readCsv = express.raw({ type: CSV_TYPES, limit: AD_SPEND_MAX_BYTES, inflate: false });

/** The file's bytes, or a 413 / 415 in Italian. */
const csvBody: RequestHandler = (req, res, next) => {
  if (!req.is(CSV_TYPES)) return next(new AppError(415, 'unsupported_content', 'Carica un file CSV (testo separato da «;» o «,»).'));
  readCsv(req, res, (error?: unknown) => {
    if ((error as { type?: unknown } | undefined)?.type === 'entity.too.large') {
      return next(new AppError(413, 'payload_too_large', adSpendCsvMessages.tooLarge));
    }
    next(error);
  });
};

const dayText = (day: string) => day.split('-').reverse().join('/');

/**
 * The Costs tab (decision 060): the import of an ad spend CSV (all rows or none; a day and
 * campaign imported again gets the new amount), and the spend imported so far.
 */
export function adminCostsRouter(deps: ApiDeps) {
  const router = Router();

  router.post('/ad-spend/import', csvBody, async (req, res) => {
    const bytes = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
    const parsed = parseAdSpendCsv(bytes);
    if (!parsed.ok) {
      const errors = Object.fromEntries(parsed.errors.map((error) => [String(error.line), error.message]));
      if (parsed.moreErrors > 0) errors.altri = adSpendCsvMessages.moreErrors(parsed.moreErrors);
      throw new AppError(400, 'invalid_ad_spend', parsed.message, parsed.errors.length > 0 ? { errors } : {});
    }
    const importId = randomUUID();
    const days = parsed.rows.map((row) => row.day).sort();
    const [firstDay, lastDay] = [days[0]!, days.at(-1)!];
    const counts = await deps.db.transaction(async (trx) => {
      const written = await importAdSpend(trx, parsed.rows, { importId, adminId: signedIn(req).user.id });
      await auditAdminAction(trx, req, {
        action: 'import_ad_spend',
        target: { type: 'ad_spend_import', id: importId },
        details: { rows: parsed.rows.length, ...written, firstDay, lastDay },
      });
      return written;
    });
    const answer: AdSpendImport = {
      message:
        `Importate ${parsed.rows.length.toLocaleString('it-IT')} righe di spesa dal ${dayText(firstDay)} al ${dayText(lastDay)}: ` +
        `${counts.inserted.toLocaleString('it-IT')} nuove, ${counts.replaced.toLocaleString('it-IT')} sostituite.`,
      importId,
      rows: parsed.rows.length,
      ...counts,
      firstDay,
      lastDay,
    };
    res.json(answer);
  });

  router.get('/ad-spend', async (req, res) => {
    const { days } = parseOrThrow(adSpendListQuerySchema, req.query);
    res.json(await listAdSpend(deps.db, { today: operatorDay(new Date()), days }));
  });

  return router;
}
