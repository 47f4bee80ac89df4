import type { LeadDetail } from '@guida/shared/schemas/admin';
import { EMPTY_VALUE, formatDateTime, formatNumber, labelOf } from '../ui/admin-format';
import { DataTable, StatusBadge } from '../ui/admin-ui';

const PLATFORM_LABELS: Readonly<Record<string, string>> = { meta: 'Meta', google_ads: 'Google Ads' };
const EVENT_LABELS: Readonly<Record<string, string>> = { lead: 'Lead', verified_lead: 'Lead verificato' };

type Upload = LeadDetail['conversions'][number];

const responseText = (upload: Upload) =>
  [upload.responseStatus === null ? null : `HTTP ${upload.responseStatus}`, upload.responseSummary].filter(Boolean).join(' · ') ||
  EMPTY_VALUE;

/** The lead's conversions sent to (or fetched by) the ad platforms (decision 061). */
export function ConversionUploads({ conversions }: { conversions: LeadDetail['conversions'] }) {
  return (
    <>
      <p className="mb-2 text-sm text-slate-700">
        Solo con il consenso pubblicitario concesso e mai revocato: a Meta email e telefono pseudonimizzati (impronta SHA-256), identificativo del clic e
        browser; nient’altro del lead.
      </p>
      <DataTable
        caption="Conversioni del lead inviate alle piattaforme pubblicitarie"
        columns={[
          { label: 'Conversione' },
          { label: 'Stato' },
          { label: 'Tentativi', numeric: true },
          { label: 'Risposta' },
          { label: 'Motivo o errore' },
          { label: 'Creata il' },
          { label: 'Inviata il' },
        ]}
        rows={conversions.map((upload) => ({
          key: upload.id,
          cells: [
            `${labelOf(PLATFORM_LABELS, upload.platform)} · ${labelOf(EVENT_LABELS, upload.event)}`,
            <StatusBadge key="status" status={upload.status} />,
            formatNumber(upload.attempts),
            responseText(upload),
            upload.lastError ?? EMPTY_VALUE,
            formatDateTime(upload.createdAt),
            formatDateTime(upload.sentAt),
          ],
        }))}
        empty="Nessuna conversione: il lead non ha il consenso pubblicitario, o nessuna è ancora stata registrata."
      />
    </>
  );
}
