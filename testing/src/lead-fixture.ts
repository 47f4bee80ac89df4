import type { Knex } from 'knex';
import { guideLinkToken } from '@guida/shared/server/guide-link-token';
import { keyWithdrawalLink, withdrawalLinkToken } from '@guida/shared/server/marketing-withdrawal-link';

/** The LINK_TOKEN_SECRET of the test worker, so a test knows the link its lead gets. */
export const TEST_LINK_TOKEN_SECRET = 'test-link-token-secret-0123456789abcdef';

let counter = 0;

export interface LeadFixture {
  leadId: number;
  crmDeliveryId: number;
  /** The token the worker derives for the lead's link (only its hash is ever stored). */
  token: string;
  telefono: string;
}

/**
 * A lead as the API stores it (lead, pending SMS and CRM delivery, download token),
 * written directly: the worker's tests do not go through the API.
 */
export async function insertLead(db: Knex, overrides: Record<string, unknown> = {}): Promise<LeadFixture> {
  counter += 1;
  const telefono = (overrides.telefono as string | undefined) ?? `+39348${String(process.pid * 100 + counter).slice(-7).padStart(7, '0')}`;
  return db.transaction(async (trx) => {
    const [lead] = await trx('ebook_requests')
      .insert({
        nome: 'Mario',
        cognome: 'Rossi',
        email: 'mario.rossi@example.it',
        ebook_type: 'general',
        gdpr_consent: true,
        consent_timestamp: trx.fn.now(),
        country: telefono.startsWith('+41') ? 'CH' : 'IT',
        ...overrides,
        telefono,
      })
      .returning<{ id: number }[]>('id');
    const leadId = lead!.id;
    await trx('sms_messages').insert({ lead_id: leadId });
    await trx('download_tokens').insert({
      lead_id: leadId,
      expires_at: trx.raw("now() + interval '30 days'"),
    });
    const [crm] = await trx('crm_deliveries')
      .insert({ lead_id: leadId, event: 'lead.created' })
      .returning<{ id: number }[]>('id');
    return { leadId, crmDeliveryId: crm!.id, token: guideLinkToken(TEST_LINK_TOKEN_SECRET, leadId).token, telefono };
  });
}

/**
 * Keys a lead's marketing withdrawal link as the test worker does when it emails the lead
 * (decision 048), for tests that do not run the worker; its token.
 */
export async function keyTestWithdrawalLink(db: Knex, leadId: number, retentionMonths = 24) {
  const { token, hash } = withdrawalLinkToken(TEST_LINK_TOKEN_SECRET, leadId);
  await keyWithdrawalLink(db, leadId, hash, retentionMonths);
  return token;
}
