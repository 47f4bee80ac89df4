import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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
