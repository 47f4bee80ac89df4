import type { Knex } from 'knex';
import { gdprExportInformation } from '@guida/shared/gdpr-server-texts';
import { ATTRIBUTION_COLUMNS } from '@guida/shared/attribution-rules';
import { csvTable } from '@guida/shared/server/csv';
import { suppressionRowsOf } from '@guida/shared/server/marketing-suppression';
import { emailHash } from '@guida/shared/server/personal-data-hash';

type Row = Record<string, unknown>;

export interface PersonalDataExport {
  generatedAt: string;
  email: string;
  /** Purposes, recipients, retention: what art. 15 GDPR adds to the data itself. */
  information: Record<string, string>;
  /** Every row held for the address, by table, with the tables' column names. */
  data: Record<string, Row[]>;
}

/**
 * Everything stored for an address: its leads and what hangs off them (SMS and their
 * events, CRM deliveries, emails, the download link and downloads), its consents, its
 * data requests, and its entries on the marketing suppression list (for the address and
 * its leads' phone numbers: when and how, without the hashes). Link tokens and hashes are
 * left out: they are keys, not data about the person. Cookie choices and analytics are
 * not linked to an address (see information).
 */
export async function collectPersonalData(
  db: Knex,
  email: string,
  options: { retentionMonths: number; suppressionHashSecret: string; now?: Date },
): Promise<PersonalDataExport> {
  const address = email.toLowerCase();
  const leads = await db('ebook_requests')
    .where('email', address)
    .orderBy('id')
    .select<Row[]>(
      'id',
      'nome',
      'cognome',
      'email',
      'telefono',
      'country',
      'ebook_type',
      'source',
      'landing_path',
      ...ATTRIBUTION_COLUMNS,
      'gdpr_consent',
      'marketing_consent',
      'marketing_consent_version',
      'consent_version',
      'consent_timestamp',
      'ip_address',
      'user_agent',
      'data_retention_notified',
      'created_at',
      'repeat_of',
      'marketing_consent_withdrawn_at',
      'ad_user_data',
      'ad_personalization',
    );
  const leadIds = leads.map((lead) => lead.id as number);
  const hash = emailHash(address);

  const dataRequests = await db('gdpr_data_requests')
    .where((query) => void query.where('email_hash', hash).orWhere('email', address))
    .orderBy('id')
    .select<Row[]>(
      'id',
      'email',
      'request_type',
      'status',
      'request_data',
      'submitted_at',
      'confirmed_at',
      'processed_at',
      'completed_at',
      'notes',
      'ip_address',
      'user_agent',
    );
  const requestIds = dataRequests.map((request) => request.id as number);

  const smsMessages = await db('sms_messages')
    .whereIn('lead_id', leadIds)
    .orderBy('id')
    .select<Row[]>(
      'id',
      'lead_id',
      'status',
      'provider',
      'provider_message_id',
      'attempts',
      'error_code',
      'error_message',
      'created_at',
      'sent_at',
      'delivered_at',
      'failed_at',
    );
  const data: Record<string, Row[]> = {
    ebook_requests: leads,
    gdpr_consents: await db('gdpr_consents')
      .where((query) => void query.whereIn('lead_id', leadIds).orWhere('email', address).orWhere('email_hash', hash))
      .orderBy('id')
      .select<Row[]>(
        'id',
        'lead_id',
        'email',
        'consent_type',
        'consented',
        'consent_version',
        'consent_text_hash',
        'ip_address',
        'user_agent',
        'timestamp',
      ),
    sms_messages: smsMessages,
    sms_events: await db('sms_events')
      .whereIn('sms_message_id', smsMessages.map((sms) => sms.id as number))
      .orderBy('id')
      .select<Row[]>('id', 'sms_message_id', 'status', 'provider_status', 'error_code', 'error_message', 'occurred_at'),
    crm_deliveries: await db('crm_deliveries')
      .where((query) => void query.whereIn('lead_id', leadIds).orWhereIn('subject_lead_id', leadIds))
      .orderBy('id')
      .select<Row[]>(
        db.raw('id'),
        db.raw('coalesce(lead_id, subject_lead_id) AS lead_id'),
        'event',
        'status',
        'attempts',
        'response_status',
        'last_error',
        'created_at',
        'delivered_at',
      ),
    // What went to the ad platforms (decision 061): the recipients of art. 15(1)(c).
    conversion_uploads: await db('conversion_uploads')
      .where((query) => void query.whereIn('lead_id', leadIds).orWhereIn('subject_lead_id', leadIds))
      .orderBy('id')
      .select<Row[]>(
        db.raw('id'),
        db.raw('coalesce(lead_id, subject_lead_id) AS lead_id'),
        'platform',
        'event',
        'status',
        'attempts',
        'response_summary',
        'created_at',
        'sent_at',
      ),
    email_messages: await db('email_messages')
      .where((query) => void query.whereIn('lead_id', leadIds).orWhereIn('data_request_id', requestIds))
      .orderBy('id')
      .select<Row[]>('id', 'lead_id', 'data_request_id', 'kind', 'status', 'attempts', 'last_error', 'created_at', 'sent_at'),
    download_tokens: await db('download_tokens')
      .whereIn('lead_id', leadIds)
      .orderBy('id')
      .select<Row[]>('id', 'lead_id', 'expires_at', 'created_at', 'first_downloaded_at', 'last_downloaded_at', 'download_count'),
    guide_downloads: await db('guide_downloads')
      .whereIn('lead_id', leadIds)
      .orderBy('id')
      .select<Row[]>('id', 'lead_id', 'downloaded_at'),
    gdpr_data_requests: dataRequests,
    marketing_suppressions: (
      await suppressionRowsOf(db, options.suppressionHashSecret, [
        { kind: 'email', value: address },
        ...leads.map((lead) => ({ kind: 'phone' as const, value: lead.telefono as string })),
      ])
    ).map((row, index) => ({ id: index + 1, ...row })),
  };
  return {
    generatedAt: (options.now ?? new Date()).toISOString(),
    email: address,
    information: gdprExportInformation(options.retentionMonths),
    data,
  };
}

const CSV_HEADER = ['tabella', 'id', 'campo', 'valore'];

/** Nested values (the request's details) as JSON; the rest as the CSV writer shows them. */
const cellValue = (value: unknown) =>
  value !== null && typeof value === 'object' && !(value instanceof Date) ? JSON.stringify(value) : value;

/**
 * The same export as CSV, one line per field ("long" format: tabella, id, campo, valore),
 * so tables with different columns fit in one file that any spreadsheet opens. Written by
 * the admin exports' CSV writer (decision 012): `;`, BOM, and values a spreadsheet would
 * run as a formula (a `nome` of `=HYPERLINK(...)`) defused.
 */
export function personalDataCsv(exported: PersonalDataExport): string {
  const rows: unknown[][] = [];
  for (const [table, tableRows] of Object.entries(exported.data)) {
    for (const row of tableRows) {
      for (const [field, value] of Object.entries(row)) {
        if (field === 'id') continue;
        rows.push([table, row.id, field, cellValue(value)]);
      }
    }
  }
  return csvTable(CSV_HEADER, rows);
}
