import { useCallback, useRef } from 'react';
import { SMS_STATUSES } from '@guida/shared/deliveries/delivery-statuses';
import { EBOOK_TYPES } from '@guida/shared/lead-rules';
import { leadFiltersSchema, type LeadList, type LeadOrder, type LeadSummary } from '@guida/shared/schemas/admin';
import {
  COUNTRY_LABELS,
  EMPTY_VALUE,
  GUIDE_LABELS,
  clickPlatforms,
  countryLabel,
  formatDateTime,
  formatNumber,
  guideLabel,
  statusLabel,
} from '../ui/admin-format';
import { ClippedText, FOCUS_RING, ScrollRegion, Section, StatusBadge } from '../ui/admin-ui';
import { CAMPAIGN_FIELDS, DATE_RANGE_FIELDS, FilterForm, type FilterField } from '../ui/filter-form';
import { ErrorNotice, Loading } from '../ui/query-state';
import { useUrlValues } from '../ui/url-values';
import { LeadDetailDialog } from './lead-detail';
import { leadsExportUrl, useLeadList } from './lead-queries';
import { SuppressedBadge } from './marketing-suppression';
import { VerificationBadges } from './verification-badges';

const FILTER_NAMES = leadFiltersSchema.keyof().options;
const URL_NAMES = [...FILTER_NAMES, 'order', 'page', 'lead'] as const;
const PAGE_SIZE = 25;

const GUIDE_OPTIONS = EBOOK_TYPES.map((value) => ({ value, label: GUIDE_LABELS[value] }));
const COUNTRY_OPTIONS = (['IT', 'CH'] as const).map((value) => ({ value, label: COUNTRY_LABELS[value] }));
const SMS_OPTIONS = SMS_STATUSES.map((value) => ({ value, label: statusLabel(value) }));
const CLICK_ID_OPTIONS = [
  { value: 'si', label: 'Sì (gclid, fbclid, …)' },
  { value: 'no', label: 'No' },
];
const YES_NO_OPTIONS = [
  { value: 'si', label: 'Sì' },
  { value: 'no', label: 'No' },
];

const FILTER_FIELDS: readonly FilterField<(typeof FILTER_NAMES)[number]>[] = [
  { name: 'q', label: 'Cerca', type: 'search' },
  ...DATE_RANGE_FIELDS,
  { name: 'landingPath', label: 'Pagina di atterraggio' },
  { name: 'source', label: 'Origine' },
  ...CAMPAIGN_FIELDS,
  { name: 'referrerHost', label: 'Sito di provenienza' },
  { name: 'clickId', label: 'Clic su un annuncio', options: CLICK_ID_OPTIONS },
  { name: 'ebookType', label: 'Guida', options: GUIDE_OPTIONS },
  { name: 'country', label: 'Paese', options: COUNTRY_OPTIONS },
  { name: 'smsStatus', label: 'Stato SMS', options: SMS_OPTIONS },
  // Decision 059: verified = SMS delivered or guide opened.
  { name: 'verified', label: 'Verificato', options: YES_NO_OPTIONS },
  { name: 'reachable', label: 'SMS consegnato', options: YES_NO_OPTIONS },
  { name: 'engaged', label: 'Guida aperta', options: YES_NO_OPTIONS },
];

const positiveInteger = (text: string) => {
  const value = Number(text);
  return Number.isInteger(value) && value > 0 ? value : null;
};

/**
 * The leads table: filters, order, page and open lead live in the URL, so a reload keeps
 * them and a link shows a colleague the same view.
 */
export function LeadsTab() {
  const [values, update] = useUrlValues(URL_NAMES);
  const filters = Object.fromEntries(FILTER_NAMES.map((name) => [name, values[name]]));
  const page = positiveInteger(values.page) ?? 1;
  const order: LeadOrder = values.order === 'asc' ? 'asc' : 'desc';
  const openLeadId = positiveInteger(values.lead);
  const list = useLeadList(filters, page, PAGE_SIZE, order);
  // The dialog has no trigger of its own: closing it returns focus to the row it came from.
  const opener = useRef<HTMLElement | null>(null);
  const focusOpener = useCallback(() => opener.current?.focus(), []);

  return (
    <div className="flex flex-col gap-4">
      <FilterForm
        label="Filtri dei lead"
        schema={leadFiltersSchema}
        fields={FILTER_FIELDS}
        values={values}
        onApply={(applied) => update({ ...applied, page: '', lead: '' })}
      />

      <Section
        title="Lead"
        actions={
          <a href={leadsExportUrl(filters)} download className="btn-secondary">
            Esporta CSV
          </a>
        }
      >
        {list.isPending ? (
          <Loading label="Caricamento dei lead" />
        ) : list.isError ? (
          <ErrorNotice error={list.error} onRetry={() => void list.refetch()} />
        ) : (
          <>
            <LeadsTable
              list={list.data}
              order={order}
              onOrder={(next) => update({ order: next === 'desc' ? '' : next, page: '' })}
              updating={list.isPlaceholderData}
              onOpen={(id, row) => {
                opener.current = row.querySelector('button');
                update({ lead: String(id) });
              }}
            />
            <Pagination list={list.data} onPage={(next) => update({ page: next > 1 ? String(next) : '' })} />
          </>
        )}
      </Section>

      <LeadDetailDialog
        leadId={openLeadId}
        onClose={() => update({ lead: '' })}
        onClosed={focusOpener}
      />
    </div>
  );
}

/** Columns of fixed width keep the statuses in view whatever a value's length (the rest share what is left). */
const COLUMNS: { label: string; width?: string }[] = [
  { label: 'Nome' },
  { label: 'Email' },
  { label: 'Telefono', width: 'w-36' },
  { label: 'Paese', width: 'w-24' },
  { label: 'Pagina e guida' },
  { label: 'Campagna' },
  { label: 'Clic su annuncio', width: 'w-28' },
  { label: 'Stato SMS', width: 'w-32' },
  { label: 'Stato CRM', width: 'w-32' },
  { label: 'Verifica', width: 'w-36' },
];
const CELL = 'px-3 py-2 align-top text-slate-800';

function LeadsTable({
  list,
  order,
  onOrder,
  updating,
  onOpen,
}: {
  list: LeadList;
  order: LeadOrder;
  onOrder: (order: LeadOrder) => void;
  updating: boolean;
  onOpen: (id: number, row: HTMLTableRowElement) => void;
}) {
  if (list.items.length === 0) return <p className="text-sm text-slate-700">Nessun lead corrisponde ai filtri.</p>;
  return (
    <ScrollRegion label="Tabella dei lead">
      <table
        aria-busy={updating}
        className={`w-full min-w-[72rem] table-fixed divide-y divide-slate-200 text-sm ${updating ? 'opacity-60' : ''}`}
      >
        <caption className="sr-only">Lead: scegli un nome per aprirne il dettaglio</caption>
        <thead className="bg-slate-100">
          <tr>
            <th scope="col" aria-sort={order === 'asc' ? 'ascending' : 'descending'} className="w-40 px-3 py-2 text-left font-semibold text-slate-900">
              <button
                type="button"
                className={`rounded text-left underline decoration-dotted ${FOCUS_RING}`}
                onClick={() => onOrder(order === 'asc' ? 'desc' : 'asc')}
              >
                Data (ora di Roma) <span aria-hidden="true">{order === 'asc' ? '↑' : '↓'}</span>
                <span className="sr-only">{order === 'asc' ? ', dal meno recente' : ', dal più recente'}: cambia ordine</span>
              </button>
            </th>
            {COLUMNS.map((column) => (
              <th key={column.label} scope="col" className={`px-3 py-2 text-left font-semibold text-slate-900 ${column.width ?? ''}`}>
                {column.label}
              </th>
            ))}
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-200">
          {list.items.map((lead) => (
            // A click anywhere on the row opens the detail; the name button (whose click
            // bubbles here) is the way in for keyboards and screen readers.
            <tr key={lead.id} onClick={(event) => onOpen(lead.id, event.currentTarget)} className="cursor-pointer hover:bg-slate-50">
              <td className={CELL}>{formatDateTime(lead.createdAt)}</td>
              <th scope="row" className="px-3 py-2 text-left align-top font-medium">
                <button
                  type="button"
                  aria-haspopup="dialog"
                  title={`${lead.nome} ${lead.cognome}`}
                  className={`block max-w-full truncate rounded text-left text-emerald-800 underline focus:whitespace-normal focus:[overflow-wrap:anywhere] ${FOCUS_RING}`}
                >
                  {lead.nome} {lead.cognome}
                </button>
                {lead.marketingSuppressedAt ? <SuppressedBadge since={lead.marketingSuppressedAt} /> : null}
              </th>
              <td className={CELL}>
                <ClippedText value={lead.email} />
              </td>
              <td className={`${CELL} whitespace-nowrap`}>{lead.telefono}</td>
              <td className={CELL}>{countryLabel(lead.country)}</td>
              <td className={CELL}>
                <ClippedText value={lead.landingPath} />
                <span className="block text-xs text-slate-700">{guideLabel(lead.ebookType)}</span>
              </td>
              <td className={CELL}>
                <Campaign lead={lead} />
              </td>
              <td className={CELL}>{clickPlatforms(lead) ?? clickPlatforms(lead.firstTouch) ?? EMPTY_VALUE}</td>
              <td className={CELL}>
                <StatusBadge status={lead.smsStatus} wraps />
              </td>
              <td className={CELL}>
                <StatusBadge status={lead.crmStatus} wraps />
              </td>
              <td className={CELL}>
                <VerificationBadges lead={lead} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </ScrollRegion>
  );
}

/** The last touch: source / medium, then the campaign, or where the visitor came from. */
function Campaign({ lead }: { lead: LeadSummary }) {
  const sourceMedium = [lead.utmSource, lead.utmMedium].filter(Boolean).join(' / ');
  if (!sourceMedium && !lead.utmCampaign) return <ClippedText value={lead.referrerHost} />;
  return (
    <>
      <ClippedText value={sourceMedium || null} />
      {lead.utmCampaign ? (
        <span className="block text-xs text-slate-700">
          <ClippedText value={lead.utmCampaign} />
        </span>
      ) : null}
    </>
  );
}

function Pagination({ list, onPage }: { list: LeadList; onPage: (page: number) => void }) {
  const pages = Math.max(1, Math.ceil(list.total / list.pageSize));
  return (
    <nav aria-label="Pagine dei lead" className="mt-4 flex flex-wrap items-center justify-between gap-3 text-sm text-slate-800">
      <p>{formatNumber(list.total)} lead in totale</p>
      <div className="flex items-center gap-3">
        <button
          type="button"
          className="btn-secondary disabled:cursor-not-allowed disabled:opacity-50"
          disabled={list.page <= 1}
          onClick={() => onPage(list.page - 1)}
        >
          Precedente
        </button>
        <p aria-live="polite">
          Pagina {formatNumber(list.page)} di {formatNumber(pages)}
        </p>
        <button
          type="button"
          className="btn-secondary disabled:cursor-not-allowed disabled:opacity-50"
          disabled={list.page >= pages}
          onClick={() => onPage(list.page + 1)}
        >
          Successiva
        </button>
      </div>
    </nav>
  );
}
