import { useId, type ReactNode } from 'react';
import { TOUCH_FIELDS, type Touch } from '@guida/shared/attribution-rules';
import type { LeadDetail } from '@guida/shared/schemas/admin';
import { SideSheet } from '../../../components/ui/side-sheet';
import {
  EMPTY_VALUE,
  TOUCH_LABELS,
  adConsentLabel,
  countryLabel,
  formatDateTime,
  formatNumber,
  guideLabel,
  smsPriceText,
  variantLabel,
  yesNo,
} from '../ui/admin-format';
import { DataTable, Facts, FOCUS_RING, StatusBadge } from '../ui/admin-ui';
import { ConfirmAction } from '../ui/confirm-action';
import { ErrorNotice, Loading } from '../ui/query-state';
import { leadUrl, refreshesLeads, useLeadDetail } from './lead-queries';
import { SuppressionDetail } from './marketing-suppression';
import { VerificationFacts } from './verification-badges';
import { ConversionUploads } from './conversion-uploads';

/** The side sheet with everything about one lead, and the actions to deliver it again. */
export function LeadDetailDialog({
  leadId,
  onClose,
  onClosed,
}: {
  leadId: number | null;
  onClose: () => void;
  /** After the sheet closed: the focus goes back to the row that opened it. */
  onClosed: () => void;
}) {
  const titleId = useId();
  const descriptionId = useId();
  return (
    <SideSheet
      open={leadId !== null}
      onClose={onClose}
      onClosed={onClosed}
      labelledBy={titleId}
      describedBy={descriptionId}
      className="sm:max-w-2xl"
    >
      <div className="flex flex-col gap-5">
        <div className="flex items-start justify-between gap-4">
          <div>
            <h2 id={titleId} className="text-xl font-semibold text-slate-900">
              Lead n. {leadId}
            </h2>
            <p id={descriptionId} className="text-sm text-slate-700">
              Dati, consenso e stato delle consegne del lead.
            </p>
          </div>
          <button
            type="button"
            onClick={onClose}
            aria-label="Chiudi"
            className={`rounded p-1 text-2xl leading-none text-slate-700 hover:text-slate-900 ${FOCUS_RING}`}
          >
            <span aria-hidden="true">×</span>
          </button>
        </div>
        {leadId === null ? null : <LeadDetailBody id={leadId} />}
      </div>
    </SideSheet>
  );
}

function LeadDetailBody({ id }: { id: number }) {
  const detail = useLeadDetail(id);
  if (detail.isPending) return <Loading label="Caricamento del lead" />;
  if (detail.isError) return <ErrorNotice error={detail.error} onRetry={() => void detail.refetch()} />;
  const { lead, sms, crm, emails, download, repeatOf, conversions } = detail.data;
  const url = leadUrl(id);
  return (
    <>
      <div className="flex flex-wrap items-start gap-3">
        <ConfirmAction
          label="Reinvia SMS"
          question={`Inviare di nuovo l’SMS con il link alla guida a ${lead.telefono}?`}
          url={`${url}/resend-sms`}
          refreshes={refreshesLeads}
        />
        <ConfirmAction
          label="Reinvia al CRM"
          question="Inviare di nuovo questo lead al CRM?"
          url={`${url}/redeliver-crm`}
          refreshes={refreshesLeads}
        />
        <ConfirmAction
          label="Revoca il consenso marketing"
          question={`Revocare il consenso marketing di ${lead.email} e ${lead.telefono}? Vale per tutte le richieste con questa email o questo numero: entrambi vanno nella lista di soppressione e il CRM ne viene informato.`}
          url={`${url}/withdraw-marketing`}
          refreshes={refreshesLeads}
          danger
        />
      </div>

      <DetailSection title="Dati del lead">
        <Facts
          items={[
            ['Nome', `${lead.nome} ${lead.cognome}`],
            ['Email', lead.email],
            ['Telefono', lead.telefono],
            ['Paese', countryLabel(lead.country)],
            ['Guida', guideLabel(lead.ebookType)],
            ['Richiesta il', formatDateTime(lead.createdAt)],
            ['Origine', lead.source],
            ['Pagina', lead.landingPath ?? EMPTY_VALUE],
            ['Variante A/B', variantLabel(lead.landingPath, lead.heroVariant)],
          ]}
        />
      </DetailSection>

      <DetailSection title="Verifica (SMS consegnato o guida aperta)">
        <VerificationFacts lead={lead} />
      </DetailSection>

      <DetailSection title="Provenienza (ultimo contatto)">
        <Facts items={touchFacts(lead)} />
      </DetailSection>

      <DetailSection title="Provenienza (primo contatto della visita)">
        <Facts items={touchFacts(lead.firstTouch)} />
      </DetailSection>

      <DetailSection title="Consenso">
        <Facts
          items={[
            ['Consenso privacy', yesNo(lead.gdprConsent)],
            ['Versione del testo privacy', lead.consentVersion],
            ['Consenso marketing (facoltativo)', yesNo(lead.marketingConsent)],
            ['Versione del testo marketing', lead.marketingConsentVersion ?? EMPTY_VALUE],
            ['Data e ora', formatDateTime(lead.consentTimestamp)],
            ['IP (troncato)', lead.ipAddress ?? EMPTY_VALUE],
            ['Browser', lead.userAgent ?? EMPTY_VALUE],
            ['Consenso marketing revocato il', formatDateTime(lead.marketingConsentWithdrawnAt)],
          ]}
        />
      </DetailSection>

      <DetailSection title="Consenso pubblicitario all’invio (Google Consent Mode)">
        <p className="mb-2 text-sm text-slate-700">
          Concesso solo se, al momento della richiesta, risultava registrato il consenso del visitatore ai cookie di
          marketing.
        </p>
        {/* Long terms: each over its value on a phone. */}
        <Facts
          columns="grid-cols-1 sm:grid-cols-[max-content_1fr]"
          items={[
            ['Dati utente per la pubblicità (ad_user_data)', adConsentLabel(lead.adUserData)],
            ['Personalizzazione degli annunci (ad_personalization)', adConsentLabel(lead.adPersonalization)],
          ]}
        />
      </DetailSection>

      <DetailSection title="Lista di soppressione marketing">
        <SuppressionDetail detail={detail.data} />
      </DetailSection>

      <DetailSection title="SMS">
        {repeatOf !== null && !sms ? (
          <p className="text-sm text-slate-700">
            Richiesta ripetuta entro 24 ore dallo stesso numero: nessun nuovo SMS. La prima richiesta è il lead n. {repeatOf}.
          </p>
        ) : (
          <SmsDetail sms={sms} />
        )}
      </DetailSection>

      <DetailSection title="Invii al CRM">
        <DataTable
          caption="Consegne del lead al CRM"
          columns={[
            { label: 'Evento' },
            { label: 'Stato' },
            { label: 'Tentativi', numeric: true },
            { label: 'Risposta HTTP', numeric: true },
            { label: 'Ultimo errore' },
            { label: 'Creato il' },
            { label: 'Consegnato il' },
          ]}
          rows={crm.map((delivery) => ({
            key: delivery.id,
            cells: [
              delivery.event,
              <StatusBadge key="status" status={delivery.status} />,
              formatNumber(delivery.attempts),
              delivery.responseStatus ?? EMPTY_VALUE,
              delivery.lastError ?? EMPTY_VALUE,
              formatDateTime(delivery.createdAt),
              formatDateTime(delivery.deliveredAt),
            ],
          }))}
          empty="Nessun invio al CRM."
        />
      </DetailSection>

      <DetailSection title="Conversioni alle piattaforme pubblicitarie">
        <ConversionUploads conversions={conversions} />
      </DetailSection>

      <DetailSection title="Email">
        <DataTable
          caption="Email inviate al lead"
          columns={[{ label: 'Tipo' }, { label: 'Stato' }, { label: 'Tentativi', numeric: true }, { label: 'Inviata il' }]}
          rows={emails.map((email, index) => ({
            key: index,
            cells: [
              email.kind,
              <StatusBadge key="status" status={email.status} />,
              formatNumber(email.attempts),
              formatDateTime(email.sentAt),
            ],
          }))}
          empty="Nessuna email."
        />
      </DetailSection>

      <DetailSection title="Link di download">
        {download ? (
          <Facts
            items={[
              ['Scade il', formatDateTime(download.expiresAt)],
              ['Download effettuati', formatNumber(download.downloadCount)],
              ['Primo download', formatDateTime(download.firstDownloadedAt)],
            ]}
          />
        ) : (
          <p className="text-sm text-slate-700">Nessun link di download creato.</p>
        )}
      </DetailSection>
    </>
  );
}

function SmsDetail({ sms }: { sms: LeadDetail['sms'] }) {
  if (!sms) return <p className="text-sm text-slate-700">Nessun SMS per questo lead.</p>;
  return (
    <>
      <Facts
        items={[
          ['Stato', <StatusBadge key="status" status={sms.status} />],
          ['Fornitore', sms.provider ?? EMPTY_VALUE],
          ['ID del messaggio', sms.providerMessageId ?? EMPTY_VALUE],
          ['Tentativi', formatNumber(sms.attempts)],
          ['Inviato il', formatDateTime(sms.sentAt)],
          ['Consegnato il', formatDateTime(sms.deliveredAt)],
          ['Prezzo (Twilio)', smsPriceText(sms)],
          ['Errore', errorText(sms.errorCode, sms.errorMessage)],
        ]}
      />
      <h4 className="mt-4 text-sm font-semibold text-slate-900">Cronologia</h4>
      {sms.timeline.length === 0 ? (
        <p className="text-sm text-slate-700">Nessun evento registrato.</p>
      ) : (
        <ol className="mt-2 flex flex-col gap-2 border-l-2 border-slate-300 pl-4">
          {sms.timeline.map((event, index) => (
            <li key={index} className="text-sm text-slate-800">
              <div className="flex flex-wrap items-center gap-2">
                <StatusBadge status={event.status} />
                <time dateTime={event.at}>{formatDateTime(event.at)}</time>
              </div>
              {event.providerStatus ? <p>Stato del fornitore: {event.providerStatus}</p> : null}
              {event.errorCode || event.errorMessage ? <p className="text-red-800">{errorText(event.errorCode, event.errorMessage)}</p> : null}
            </li>
          ))}
        </ol>
      )}
    </>
  );
}

function errorText(code: string | null, message: string | null) {
  if (!code && !message) return EMPTY_VALUE;
  return [code ? `Codice ${code}` : null, message].filter(Boolean).join(': ');
}

function DetailSection({ title, children }: { title: string; children: ReactNode }) {
  const id = useId();
  return (
    <section aria-labelledby={id} className="border-t border-slate-200 pt-4">
      <h3 id={id} className="mb-2 text-base font-semibold text-slate-900">
        {title}
      </h3>
      {children}
    </section>
  );
}

/** Every field of a touch, by its parameter name (what the operator typed into the ad's URL). */
const touchFacts = (touch: Touch): [string, ReactNode][] =>
  TOUCH_FIELDS.map((field) => [TOUCH_LABELS[field], touch[field] ?? EMPTY_VALUE]);
