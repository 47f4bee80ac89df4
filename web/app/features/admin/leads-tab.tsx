import { useCallback, useRef } from 'react';
import { SMS_STATUSES } from '@guida/shared/deliveries/delivery-statuses';
import type { EbookType } from '@guida/shared/lead-rules';
import type { LeadFilters, LeadList } from '@guida/shared/schemas/admin';
import { leadsExportUrl, useLeadList } from './admin-api';
import {
  COUNTRY_LABELS,
  EMPTY_VALUE,
  GUIDE_LABELS,
  countryLabel,
  formatDateTime,
  formatNumber,
  guideLabel,
  statusLabel,
} from './admin-format';
import {
  ErrorNotice,
  FOCUS_RING,
  FilterForm,
  Loading,
  ScrollRegion,
  Section,
  SelectFilter,
  StatusBadge,
  TextFilter,
  useUrlValues,
} from './admin-ui';
import { LeadDetailDialog } from './lead-detail';

const FILTER_NAMES = [
  'q',
  'from',
  'to',
  'landingPath',
  'source',
  'utmSource',
  'utmMedium',
  'utmCampaign',
  'ebookType',
  'country',
  'smsStatus',
] as const satisfies readonly (keyof LeadFilters)[];
const URL_NAMES = [...FILTER_NAMES, 'page', 'lead'] as const;
const PAGE_SIZE = 25;

// From the labels (complete for every EbookType) rather than EBOOK_TYPES: a runtime import
// of lead-rules would split it out of the public pages' chunks.
const GUIDE_OPTIONS = (Object.keys(GUIDE_LABELS) as EbookType[]).map((value) => ({ value, label: GUIDE_LABELS[value] }));
const COUNTRY_OPTIONS = (['IT', 'CH'] as const).map((value) => ({ value, label: COUNTRY_LABELS[value] }));
const SMS_OPTIONS = SMS_STATUSES.map((value) => ({ value, label: statusLabel(value) }));

const positiveInteger = (text: string) => {
  const value = Number(text);
  return Number.isInteger(value) && value > 0 ? value : null;
};

/** The leads table: filters, page and open lead live in the URL, so a reload keeps them. */
export function LeadsTab() {
  const [values, update] = useUrlValues(URL_NAMES);
  const filters = Object.fromEntries(FILTER_NAMES.map((name) => [name, values[name]]));
  const page = positiveInteger(values.page) ?? 1;
  const openLeadId = positiveInteger(values.lead);
  const list = useLeadList(filters, page, PAGE_SIZE);
  // The dialog has no trigger of its own: closing it returns focus to the row it came from.
  const opener = useRef<HTMLElement | null>(null);
  const focusOpener = useCallback(() => opener.current?.focus(), []);

  return (
    <div className="flex flex-col gap-4">
      <FilterForm label="Filtri dei lead" names={FILTER_NAMES} values={values} onApply={(applied) => update({ ...applied, page: '', lead: '' })}>
        <TextFilter name="q" label="Cerca" type="search" defaultValue={values.q} />
        <TextFilter name="from" label="Dal giorno" type="date" defaultValue={values.from} />
        <TextFilter name="to" label="Al giorno" type="date" defaultValue={values.to} />
        <TextFilter name="landingPath" label="Pagina di atterraggio" defaultValue={values.landingPath} />
        <TextFilter name="source" label="Origine" defaultValue={values.source} />
        <TextFilter name="utmSource" label="utm_source" defaultValue={values.utmSource} />
        <TextFilter name="utmMedium" label="utm_medium" defaultValue={values.utmMedium} />
        <TextFilter name="utmCampaign" label="utm_campaign" defaultValue={values.utmCampaign} />
        <SelectFilter name="ebookType" label="Guida" options={GUIDE_OPTIONS} defaultValue={values.ebookType} />
        <SelectFilter name="country" label="Paese" options={COUNTRY_OPTIONS} defaultValue={values.country} />
        <SelectFilter name="smsStatus" label="Stato SMS" options={SMS_OPTIONS} defaultValue={values.smsStatus} />
      </FilterForm>

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

const COLUMNS = ['Data', 'Nome', 'Email', 'Telefono', 'Paese', 'Guida', 'Pagina', 'utm_source', 'Stato SMS', 'Stato CRM'];

function LeadsTable({
  list,
  updating,
  onOpen,
}: {
  list: LeadList;
  updating: boolean;
  onOpen: (id: number, row: HTMLTableRowElement) => void;
}) {
  if (list.items.length === 0) return <p className="text-sm text-slate-700">Nessun lead corrisponde ai filtri.</p>;
  return (
    <ScrollRegion label="Tabella dei lead">
      <table aria-busy={updating} className={`min-w-full divide-y divide-slate-200 text-sm ${updating ? 'opacity-60' : ''}`}>
        <caption className="sr-only">Lead: scegli un nome per aprirne il dettaglio</caption>
        <thead className="bg-slate-100">
          <tr>
            {COLUMNS.map((column) => (
              <th key={column} scope="col" className="whitespace-nowrap px-3 py-2 text-left font-semibold text-slate-900">
                {column}
              </th>
            ))}
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-200">
          {list.items.map((lead) => (
            // A click anywhere on the row opens the detail; the name button (whose click
            // bubbles here) is the way in for keyboards and screen readers.
            <tr key={lead.id} onClick={(event) => onOpen(lead.id, event.currentTarget)} className="cursor-pointer hover:bg-slate-50">
              <td className="whitespace-nowrap px-3 py-2 text-slate-800">{formatDateTime(lead.createdAt)}</td>
              <th scope="row" className="px-3 py-2 text-left font-medium">
                <button type="button" aria-haspopup="dialog" className={`rounded text-left text-emerald-800 underline ${FOCUS_RING}`}>
                  {lead.nome} {lead.cognome}
                </button>
              </th>
              <td className="px-3 py-2 text-slate-800">{lead.email}</td>
              <td className="whitespace-nowrap px-3 py-2 text-slate-800">{lead.telefono}</td>
              <td className="px-3 py-2 text-slate-800">{countryLabel(lead.country)}</td>
              <td className="px-3 py-2 text-slate-800">{guideLabel(lead.ebookType)}</td>
              <td className="px-3 py-2 text-slate-800">{lead.landingPath ?? EMPTY_VALUE}</td>
              <td className="px-3 py-2 text-slate-800">{lead.utmSource ?? EMPTY_VALUE}</td>
              <td className="px-3 py-2">
                <StatusBadge status={lead.smsStatus} />
              </td>
              <td className="px-3 py-2">
                <StatusBadge status={lead.crmStatus} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </ScrollRegion>
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
