import type { GoogleAdsConversionsSummary } from '@guida/shared/schemas/admin-conversions';
import { formatDateTime, formatNumber } from '../ui/admin-format';
import { Facts, Section } from '../ui/admin-ui';
import { QueryContent } from '../ui/query-state';
import { googleAdsExportUrl, useGoogleAdsConversions } from './conversion-queries';

/**
 * Conversions sent back to the ad platforms. Google Ads (decision 062): what the offline
 * conversions file holds, its download, and the address Google Ads' scheduled uploads
 * fetch it from, with what they took so far.
 */
export function ConversionsTab() {
  const summary = useGoogleAdsConversions();
  return (
    <div className="flex flex-col gap-4">
      <Section
        title="Google Ads: conversioni offline"
        actions={
          <a href={googleAdsExportUrl} download className="btn-secondary">
            Esporta conversioni Google Ads (CSV)
          </a>
        }
      >
        <QueryContent query={summary} loadingLabel="Caricamento delle conversioni Google Ads">
          {(data) => <GoogleAdsSummary summary={data} />}
        </QueryContent>
      </Section>
    </div>
  );
}

function GoogleAdsSummary({ summary }: { summary: GoogleAdsConversionsSummary }) {
  const { conversionNames, scheduledFetch, fetched } = summary;
  return (
    <div className="flex flex-col gap-4 text-sm text-slate-700">
      <p>
        Il file, nel formato di importazione delle conversioni da clic di Google Ads, contiene i lead degli ultimi{' '}
        {summary.windowDays} giorni arrivati da un annuncio Google (con gclid, gbraid o wbraid) che hanno accettato i cookie di
        marketing e non hanno revocato il consenso: una conversione «{conversionNames.lead}» alla richiesta della guida e una
        «{conversionNames.verifiedLead}» quando il lead è verificato (SMS consegnato o guida aperta). Gli orari sono nel fuso{' '}
        {summary.timeZone}. Google non accetta clic più vecchi di {summary.windowDays} giorni.
      </p>
      <Facts
        label="Impostazioni del file"
        items={[
          ['Conversione alla richiesta', conversionNames.lead],
          ['Conversione del lead verificato', conversionNames.verifiedLead],
          [
            'Valore per conversione',
            summary.value === null
              ? `quello dell’azione di conversione in Google Ads (${summary.currency})`
              : `${summary.value} ${summary.currency}`,
          ],
        ]}
      />
      <div>
        <h3 className="mb-2 text-base font-semibold text-slate-900">Caricamento programmato</h3>
        {scheduledFetch.configured ? (
          <p>
            Attivo. In Google Ads pianifica un caricamento delle conversioni da HTTPS con questo indirizzo, il nome utente e la
            password di GOOGLE_ADS_EXPORT_USERNAME e GOOGLE_ADS_EXPORT_PASSWORD:
          </p>
        ) : (
          <p>
            Non attivo: imposta GOOGLE_ADS_EXPORT_USERNAME e GOOGLE_ADS_EXPORT_PASSWORD nella configurazione del server perché
            Google Ads possa scaricare il file ogni giorno da questo indirizzo:
          </p>
        )}
        <code className="mt-1 block rounded-md bg-slate-100 p-2 font-mono text-slate-900 select-all [overflow-wrap:anywhere]">
          {scheduledFetch.url}
        </code>
        <div className="mt-3">
          <Facts
            label="Download di Google Ads"
            items={[
              ['Ultimo download di Google Ads', formatDateTime(fetched.lastAt)],
              ['Richieste inviate a Google Ads', formatNumber(fetched.leads)],
              ['Lead verificati inviati a Google Ads', formatNumber(fetched.verifiedLeads)],
            ]}
          />
        </div>
      </div>
    </div>
  );
}
