import { useId, type ReactNode } from 'react';
import { OVERVIEW_PERIODS, type Overview } from '@guida/shared/schemas/admin';
import { Field } from '../../../components/ui/form';
import {
  EMPTY_VALUE,
  formatClock,
  formatDateTime,
  formatDay,
  formatDuration,
  formatNumber,
  formatPercent,
  smsErrorLabel,
  sourceLabel,
} from '../ui/admin-format';
import { CARD_CLASS, DataTable, Facts, FOCUS_RING, Section } from '../ui/admin-ui';
import { QueryContent } from '../ui/query-state';
import { useUrlValues } from '../ui/url-values';
import { LeadCostsSection } from './lead-costs';
import { LeadsTrendChart } from './leads-trend-chart';
import { useOverview } from './overview-queries';
import { CONVERSION_COLUMNS, conversionCells, VerifiedLeadsSection } from './verified-leads';

const PERIOD_NAMES = ['days'] as const;
const DEFAULT_PERIOD = '7';
type Period = (typeof OVERVIEW_PERIODS)[number];
const PERIOD_LABELS: Record<Period, string> = {
  '1': 'Oggi',
  '7': 'Ultimi 7 giorni',
  '30': 'Ultimi 30 giorni',
};
const isPeriod = (value: string): value is Period => (OVERVIEW_PERIODS as readonly string[]).includes(value);

type SmsTiming = Overview['sms']['toProvider']['last24Hours'];

/** "95 % entro 41 s — promessa 2 minuti rispettata", or what share made it when it was not. */
function promiseSentence(timing: SmsTiming, promiseSeconds: number) {
  if (timing.count === 0 || timing.p95Seconds === null) return 'Nessun SMS nel periodo.';
  const promise = `promessa ${promiseSeconds / 60} minuti`;
  const head = `95 % entro ${formatDuration(timing.p95Seconds)}`;
  if (timing.p95Seconds <= promiseSeconds) return `${head} — ${promise} rispettata`;
  return `${head} — ${promise} non rispettata: ${formatPercent(timing.withinPromise, timing.count)} entro ${promiseSeconds / 60} minuti`;
}

/**
 * The admin's first screen (decision 042): leads and their trend, conversion by page and
 * campaign, the SMS promise, failures, held SMS and the CRM, refreshed every 15 s.
 */
export function OverviewTab() {
  const [values, update] = useUrlValues(PERIOD_NAMES, 'overview_');
  const days = isPeriod(values.days) ? values.days : DEFAULT_PERIOD;
  const overview = useOverview(days);
  return (
    <div className="flex flex-col gap-4">
      <div className={`${CARD_CLASS} flex flex-wrap items-end justify-between gap-3`}>
        <Field
          as="select"
          size="sm"
          label="Periodo delle tabelle per pagina e campagna"
          value={days}
          onChange={(event) => update({ days: event.target.value === DEFAULT_PERIOD ? '' : event.target.value })}
        >
          {OVERVIEW_PERIODS.map((period) => (
            <option key={period} value={period}>
              {PERIOD_LABELS[period]}
            </option>
          ))}
        </Field>
        <p className="text-sm text-slate-700">
          {overview.data
            ? `Aggiornato alle ${formatClock(overview.dataUpdatedAt)} (ora italiana), si aggiorna ogni 15 secondi.`
            : null}
        </p>
      </div>
      <QueryContent query={overview} loadingLabel="Caricamento della panoramica">
        {(data) => <OverviewView data={data} />}
      </QueryContent>
    </div>
  );
}

function Figure({ label, value, children }: { label: string; value: string; children?: ReactNode }) {
  return (
    <div className={CARD_CLASS}>
      <dt className="text-sm font-medium text-slate-700">{label}</dt>
      <dd className="text-3xl font-bold tabular-nums text-slate-900">{value}</dd>
      {children}
    </div>
  );
}

/** What the offer's state means for the form, in a sentence (decision 047). */
function offerSentence({ endsAt, placesTotal, placesTaken, endReason }: Overview['offer']) {
  const closed = 'Il modulo risponde «Offerta terminata» e non registra nuove richieste.';
  if (endReason === 'deadline') return `Offerta terminata: la scadenza del ${formatDateTime(endsAt)} è passata. ${closed}`;
  if (endReason === 'places') {
    return `Offerta terminata: tutti i posti gratuiti sono stati assegnati (${formatNumber(placesTaken)} su ${formatNumber(placesTotal ?? 0)}). ${closed}`;
  }
  if (endsAt === null && placesTotal === null) return 'Nessuna scadenza e nessun limite di posti: il modulo accetta ogni richiesta.';
  return 'Offerta in corso: il modulo accetta le richieste.';
}

/** The offer as configured, its places and whether it has ended, and why (decision 047). */
function OfferSection({ offer }: { offer: Overview['offer'] }) {
  const ended = offer.endReason !== null;
  return (
    <Section title="Offerta">
      <p className={`mb-3 rounded-md px-3 py-2 text-sm font-semibold ${ended ? 'bg-red-100 text-red-900' : 'bg-slate-100 text-slate-800'}`}>
        {offerSentence(offer)}
      </p>
      <Facts
        label="Impostazioni e posti dell’offerta"
        items={[
          ['Inizio (OFFER_STARTS_AT)', offer.startsAt ? formatDateTime(offer.startsAt) : 'Non impostato: i posti si contano dal primo lead'],
          ['Scadenza (OFFER_ENDS_AT)', offer.endsAt ? formatDateTime(offer.endsAt) : 'Nessuna'],
          [
            'Posti gratuiti (FREE_PLACES_TOTAL)',
            offer.placesTotal === null
              ? `Nessun limite (${formatNumber(offer.placesTaken)} assegnati)`
              : `${formatNumber(offer.placesTaken)} assegnati su ${formatNumber(offer.placesTotal)}, ${formatNumber(Math.max(0, offer.placesTotal - offer.placesTaken))} liberi`,
          ],
        ]}
      />
      <p className="mt-2 text-sm text-slate-700">
        Un posto per numero di telefono dall’inizio dell’offerta: le richieste ripetute non ne prendono un altro e un lead
        cancellato non lo restituisce. Ogni modifica di inizio, scadenza o posti è registrata nel registro delle attività.
      </p>
    </Section>
  );
}

function OverviewView({ data }: { data: Overview }) {
  const days = String(data.days);
  const period = isPeriod(days) ? PERIOD_LABELS[days] : '';
  return (
    <>
      <dl className="grid gap-4 sm:grid-cols-3 [&>*]:min-w-0" aria-label="Lead ricevuti">
        <Figure label="Lead oggi" value={formatNumber(data.leads.today)} />
        <Figure label="Lead negli ultimi 7 giorni" value={formatNumber(data.leads.last7Days)} />
        <Figure label="Lead negli ultimi 30 giorni" value={formatNumber(data.leads.last30Days)} />
      </dl>

      <OfferSection offer={data.offer} />

      <Section title="Lead per giorno, ultimi 30 giorni">
        <LeadsTrendChart days={data.leads.byDay} />
        <details className="mt-3">
          <summary className={`cursor-pointer rounded-sm text-sm font-semibold text-slate-800 ${FOCUS_RING}`}>
            Dati del grafico in tabella
          </summary>
          <div className="mt-2">
            <DataTable
              caption="Lead per giorno (ora italiana)"
              columns={[{ label: 'Giorno' }, { label: 'Lead', numeric: true }]}
              rows={[...data.leads.byDay].reverse().map((row) => ({ key: row.day, cells: [formatDay(row.day), formatNumber(row.leads)] }))}
              empty="Nessun dato."
            />
          </div>
        </details>
      </Section>

      <VerifiedLeadsSection data={data} period={period} />

      <SmsPromise data={data} />

      <div className="grid gap-4 lg:grid-cols-2 [&>*]:min-w-0">
        <Section title={`Conversione per pagina di atterraggio — ${period}`}>
          <DataTable
            caption="Visitatori, lead e conversione per pagina di atterraggio"
            columns={[{ label: 'Pagina' }, ...CONVERSION_COLUMNS]}
            rows={data.byLandingPage.map((row) => ({
              key: row.landingPath,
              cells: [row.landingPath || 'Sconosciuta', ...conversionCells(row)],
            }))}
            empty="Nessuna visita e nessun lead nel periodo."
          />
        </Section>
        <Section title={`Conversione per sorgente (utm_source) — ${period}`}>
          <DataTable
            caption="Visitatori, lead e conversione per sorgente"
            columns={[{ label: 'utm_source' }, ...CONVERSION_COLUMNS]}
            rows={data.bySource.map((row) => ({
              key: row.utmSource,
              cells: [sourceLabel(row.utmSource), ...conversionCells(row)],
            }))}
            empty="Nessuna visita e nessun lead nel periodo."
          />
        </Section>
      </div>
      <p className="-mt-2 text-sm text-slate-700">
        Visitatori: sessioni atterrate sulla pagina (analytics di prima parte). Conversione: lead diviso visitatori.
        Raggiungibili, coinvolti e verificati: vedi «Lead verificati».
      </p>

      <Section title={`Conversione per variante (esperimenti A/B) — ${period}`}>
        <DataTable
          caption="Visitatori, lead e conversione per variante del titolo"
          columns={[
            { label: 'Esperimento' },
            { label: 'Pagina' },
            { label: 'Variante' },
            ...CONVERSION_COLUMNS,
          ]}
          rows={data.byVariant.map((row) => ({
            key: `${row.landingPath}|${row.variantLabel}`,
            cells: [row.experimentName, row.landingPath, row.variantLabel, ...conversionCells(row)],
          }))}
          empty="Nessun esperimento A/B definito."
        />
        <p className="mt-2 text-sm text-slate-700">
          Solo una panoramica: se una differenza è significativa lo dice la scheda «Esperimenti A/B», con il campione fissato in anticipo.
        </p>
      </Section>

      <Section title={`Conversione per campagna — ${period}`}>
        <DataTable
          caption="Visitatori, lead e conversione per campagna (tutti i campi UTM)"
          columns={[
            { label: 'utm_source' },
            { label: 'utm_medium' },
            { label: 'utm_campaign' },
            { label: 'utm_term' },
            { label: 'utm_content' },
            ...CONVERSION_COLUMNS,
          ]}
          rows={data.byCampaign.map((row) => ({
            key: JSON.stringify([row.utmSource, row.utmMedium, row.utmCampaign, row.utmTerm, row.utmContent]),
            cells: [
              sourceLabel(row.utmSource),
              row.utmMedium || EMPTY_VALUE,
              row.utmCampaign || EMPTY_VALUE,
              row.utmTerm || EMPTY_VALUE,
              row.utmContent || EMPTY_VALUE,
              ...conversionCells(row),
            ],
          }))}
          empty="Nessuna visita e nessun lead nel periodo."
        />
      </Section>

      <LeadCostsSection costs={data.costs} period={period} />

      <Section title="SMS non consegnati negli ultimi 7 giorni, per motivo">
        <DataTable
          caption="SMS falliti o non consegnati per codice di errore"
          columns={[
            { label: 'Motivo' },
            { label: 'Codice' },
            { label: 'SMS', numeric: true },
            { label: 'Ultimo messaggio del provider' },
            { label: 'Ultimo alle' },
          ]}
          rows={data.sms.failuresByReason.map((row) => ({
            key: row.errorCode ?? '',
            cells: [
              smsErrorLabel(row.errorCode),
              row.errorCode ?? EMPTY_VALUE,
              formatNumber(row.count),
              row.lastMessage ?? EMPTY_VALUE,
              formatDateTime(row.lastAt),
            ],
          }))}
          empty="Nessun SMS fallito negli ultimi 7 giorni."
        />
      </Section>

      <div className="grid gap-4 lg:grid-cols-2 [&>*]:min-w-0">
        <Section title="Invii al CRM">
          <Facts
            label="Stato degli invii al CRM"
            items={[
              ['In coda', `${formatNumber(data.crm.backlog)}${data.crm.oldestBacklogAt ? ` (il più vecchio del ${formatDateTime(data.crm.oldestBacklogAt)})` : ''}`],
              ['Di cui in nuovo tentativo', formatNumber(data.crm.retrying)],
              ['Falliti negli ultimi 7 giorni', formatNumber(data.crm.failedLast7Days)],
              ['Consegnati nelle ultime 24 ore', formatNumber(data.crm.deliveredLast24Hours)],
              ['Saltati nelle ultime 24 ore', formatNumber(data.crm.skippedLast24Hours)],
              [
                'Ultimo errore (7 giorni)',
                data.crm.lastError
                  ? `${formatDateTime(data.crm.lastError.at)}: ${[data.crm.lastError.httpStatus ? `HTTP ${data.crm.lastError.httpStatus}` : null, data.crm.lastError.message].filter(Boolean).join(' — ') || EMPTY_VALUE}`
                  : 'Nessuno',
              ],
            ]}
          />
        </Section>
        <Section title="SMS trattenuti dal budget">
          <Facts
            label="SMS trattenuti"
            items={[
              ['SMS trattenuti', formatNumber(data.sms.held.count)],
              ['Il più vecchio', formatDateTime(data.sms.held.oldestAt)],
            ]}
          />
          {data.sms.held.count > 0 ? (
            <p className="mt-2 text-sm font-medium text-red-800">Si rilasciano dall’avviso in cima alla pagina.</p>
          ) : null}
        </Section>
      </div>
    </>
  );
}


function SmsPromise({ data }: { data: Overview }) {
  const measures = [
    ['Dalla richiesta all’accettazione del provider', data.sms.toProvider],
    ['Dalla richiesta alla consegna sul telefono', data.sms.toDelivered],
  ] as const;
  return (
    <Section title={`Tempi degli SMS — promessa: entro ${data.promiseSeconds / 60} minuti`}>
      <div className="grid gap-4 lg:grid-cols-2 [&>*]:min-w-0">
        {measures.map(([label, timing]) => (
          <SmsMeasure key={label} label={label} promiseSeconds={data.promiseSeconds} timing={timing} />
        ))}
      </div>
      <p className="mt-3 text-sm text-slate-700">
        Dal momento della richiesta (o del nuovo invio deciso dall’amministratore), per gli SMS accettati dal provider nel periodo.
      </p>
    </Section>
  );
}

function SmsMeasure({ label, promiseSeconds, timing }: { label: string; promiseSeconds: number; timing: Overview['sms']['toProvider'] }) {
  const id = useId();
  const windows = [
    ['Ultime 24 ore', timing.last24Hours],
    ['Ultimi 7 giorni', timing.last7Days],
  ] as const;
  return (
    <section aria-labelledby={id} className="rounded-md border border-slate-200 p-3">
      <h3 id={id} className="mb-2 font-semibold text-slate-900">
        {label}
      </h3>
      <dl className="flex flex-col gap-2 text-sm">
        {windows.map(([span, values]) => {
          const kept = values.p95Seconds === null || values.p95Seconds <= promiseSeconds;
          return (
            <div key={span}>
              <dt className="font-medium text-slate-700">{span}</dt>
              <dd>
                <span className={`block font-semibold ${kept ? 'text-slate-900' : 'text-red-800'}`}>{promiseSentence(values, promiseSeconds)}</span>
                {values.count > 0 && values.p50Seconds !== null ? (
                  <span className="block text-slate-700">
                    Mediana {formatDuration(values.p50Seconds)} su {formatNumber(values.count)} SMS
                  </span>
                ) : null}
              </dd>
            </div>
          );
        })}
      </dl>
    </section>
  );
}

