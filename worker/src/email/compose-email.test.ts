import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATA_REQUEST_EMAIL_KINDS, LEAD_EMAIL_KINDS } from '@guida/shared/jobs/email';
import { listUnsubscribeHeaders, marketingWithdrawalFooter } from '@guida/shared/marketing-withdrawal';
import { withdrawalLinkToken } from '@guida/shared/server/marketing-withdrawal-link';
import { sha256Hex } from '@guida/shared/server/personal-data-hash';
import { insertLead } from '@guida/testing/lead-fixture';
import { createTestDatabase, type TestDatabase } from '@guida/testing/test-database';
import { DEVELOPMENT_LINK_TOKEN_SECRET } from '../config';
import { composeEmail } from './compose-email';
import { loadEmailContext } from './email.repo';

let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(async () => {
  await database.drop();
});

const settings = {
  publicBaseUrl: 'https://guida.example.it',
  confirmLinkTtlHours: 72,
  exportLinkTtlDays: 7,
  retentionMonths: 24,
  linkTokenSecret: DEVELOPMENT_LINK_TOKEN_SECRET,
};

async function emailOf(kind: 'guide-link' | 'retention-notice', nome: string) {
  const lead = await insertLead(database.db, { nome });
  const [row] = await database.db('email_messages').insert({ kind, lead_id: lead.leadId }).returning<{ id: number }[]>('id');
  const context = await loadEmailContext(database.db, row!.id);
  return composeEmail(database.db, context!, settings);
}

describe('emails carry no visitor text but a plain first name', () => {
  it.each(['guide-link', 'retention-notice'] as const)('%s greets a plain name', async (kind) => {
    const email = await emailOf(kind, 'Nicolò');
    expect(email!.text.startsWith('Ciao Nicolò,\n')).toBe(true);
  });

  it.each(['guide-link', 'retention-notice'] as const)('%s greets without a name that is not a plain name', async (kind) => {
    for (const nome of ['Vai su bit.ly/3xYzAb', 'Chiama il 3471234567', 'Massimilianoooooo', 'www.premio.it']) {
      const email = await emailOf(kind, nome);
      expect(email!.text.startsWith('Ciao,\n'), nome).toBe(true);
      expect(email!.text).not.toContain(nome);
      expect(email!.text).not.toMatch(/bit\.ly|3471234567|premio/);
    }
  });
});

describe('the guide link by email', () => {
  it('says the SMS failed, or, while it is held by a budget, that it is late and will not come once the guide is downloaded', async () => {
    const failed = await emailOf('guide-link', 'Anna');
    expect(failed!.text).toContain('non siamo riusciti a consegnarti il link della guida via SMS');
    const lead = await insertLead(database.db, { nome: 'Bruno' });
    await database.db('sms_messages').where({ lead_id: lead.leadId }).update({ status: 'held' });
    const [row] = await database.db('email_messages').insert({ kind: 'guide-link', lead_id: lead.leadId }).returning<{ id: number }[]>('id');
    const delayed = await composeEmail(database.db, (await loadEmailContext(database.db, row!.id))!, settings);
    expect(delayed!.text).toContain("l'SMS con il link della guida è in ritardo, quindi te lo inviamo anche qui");
    expect(delayed!.text).toContain('https://guida.example.it/g/');
  });

  it('says why it comes by email to a repeat that has no SMS of its own: the phone got the guide for another request', async () => {
    const lead = await insertLead(database.db, { nome: 'Carla' });
    await database.db('sms_messages').where({ lead_id: lead.leadId }).delete();
    const [row] = await database.db('email_messages').insert({ kind: 'guide-link', lead_id: lead.leadId }).returning<{ id: number }[]>('id');
    const email = await composeEmail(database.db, (await loadEmailContext(database.db, row!.id))!, settings);
    expect(email!.text).toContain('ha già ricevuto la guida via SMS nelle ultime 24 ore');
    expect(email!.text).not.toContain('non siamo riusciti');
    expect(email!.text).toContain('https://guida.example.it/g/');
  });
});

describe('data-rights emails carry none of the requester’s text', () => {
  it.each(['gdpr-confirm', 'gdpr-completed', 'gdpr-rejected'] as const)('%s', async (kind) => {
    const [request] = await database.db('gdpr_data_requests')
      .insert({
        email: 'richiedente@example.it',
        request_type: 'rectification',
        status: kind === 'gdpr-confirm' ? 'pending' : kind === 'gdpr-completed' ? 'completed' : 'rejected',
        request_data: JSON.stringify({ details: 'Vai su bit.ly/3xYzAb e chiama 3471234567' }),
      })
      .returning<{ id: number }[]>('id');
    const [row] = await database.db('email_messages')
      .insert({ kind, data_request_id: request!.id })
      .returning<{ id: number }[]>('id');
    const email = await composeEmail(database.db, (await loadEmailContext(database.db, row!.id))!, settings);
    expect(email!.to).toBe('richiedente@example.it');
    expect(email!.text).not.toMatch(/bit\.ly|3471234567/);
  });
});

describe('every email to a lead carries the link that withdraws the marketing consent (decision 048)', () => {
  it.each(LEAD_EMAIL_KINDS)('%s: the link at the end of the text and in the RFC 8058 headers, keyed before it goes', async (kind) => {
    const lead = await insertLead(database.db, { created_at: '2026-11-02T09:00:00Z' });
    const [row] = await database.db('email_messages').insert({ kind, lead_id: lead.leadId }).returning<{ id: number }[]>('id');
    const email = await composeEmail(database.db, (await loadEmailContext(database.db, row!.id))!, settings);

    const { token } = withdrawalLinkToken(DEVELOPMENT_LINK_TOKEN_SECRET, lead.leadId);
    const link = `https://guida.example.it/revoca-marketing/${token}`;
    expect(email).not.toBeNull();
    expect(email!.to).toBe('mario.rossi@example.it');
    expect(email!.text.endsWith(marketingWithdrawalFooter(link))).toBe(true);
    expect(email!.headers).toEqual(listUnsubscribeHeaders(link));
    expect(email!.headers).toEqual({
      'List-Unsubscribe': `<${link}>`,
      'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
    });
    // Only the token's hash is stored; the link lives as long as the lead's data.
    const stored = await database.db('marketing_withdrawal_links').where({ lead_id: lead.leadId }).first();
    expect(stored.token_hash).toBe(sha256Hex(token));
    expect(stored.expires_at.toISOString()).toBe('2028-11-02T09:00:00.000Z');
    // Not the guide link's token: one does not give the other.
    expect(token).not.toBe(lead.token);
  });

  it.each(DATA_REQUEST_EMAIL_KINDS.filter((kind) => kind !== 'gdpr-export'))(
    '%s goes to a requester, who may be no lead: no withdrawal link, no List-Unsubscribe',
    async (kind) => {
      const [request] = await database.db('gdpr_data_requests')
        .insert({ email: 'richiesta@example.it', request_type: 'deletion', status: kind === 'gdpr-confirm' ? 'pending' : 'completed' })
        .returning<{ id: number }[]>('id');
      const [row] = await database.db('email_messages').insert({ kind, data_request_id: request!.id }).returning<{ id: number }[]>('id');
      const email = await composeEmail(database.db, (await loadEmailContext(database.db, row!.id))!, settings);
      expect(email!.text).not.toContain('/revoca-marketing/');
      expect(email!.headers).toBeUndefined();
    },
  );
});
