import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '@guida/testing/test-database';
import { migrationConfig } from './index';

const smsPricesPerMessage = { ...migrationConfig, name: '20261206120000_sms_prices_per_message' };

let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(async () => {
  await database.drop();
});

let phone = 0;
/** A lead with its SMS as the columns on sms_messages kept its price before this migration. */
async function smsBefore(sms: Record<string, unknown>) {
  phone += 1;
  const [lead] = await database.db('ebook_requests')
    .insert({ nome: 'A', cognome: 'B', email: 'a@b.it', telefono: `+3934712310${String(phone).padStart(2, '0')}` })
    .returning<{ id: number }[]>('id');
  const [row] = await database.db('sms_messages')
    .insert({ lead_id: lead!.id, provider: 'twilio', ...sms })
    .returning<{ id: number }[]>('id');
  return row!.id;
}

const sid = (n: number) => `SM${String(n).padStart(32, '0')}`;
const at = new Date('2026-11-20T10:00:00Z');

describe('migration 20261206120000_sms_prices_per_message', () => {
  it('moves each SMS price to a row of its message, keeps open lookups open, and sums them back when rolled back', async () => {
    await database.db.migrate.down(smsPricesPerMessage);
    const priced = await smsBefore({ status: 'delivered', provider_message_id: sid(1), price: '0.07400', price_unit: 'EUR', price_fetched_at: at });
    const givenUp = await smsBefore({ status: 'failed', provider_message_id: sid(2), price_fetched_at: at });
    const open = await smsBefore({ status: 'delivered', provider_message_id: sid(3) });
    // Resent: the earlier message's price kept, the new one's lookup open.
    const resent = await smsBefore({ status: 'delivered', provider_message_id: sid(4), price: '0.07400', price_unit: 'EUR' });
    const notFinal = await smsBefore({ status: 'sent', provider_message_id: sid(5) });

    await database.db.migrate.up(smsPricesPerMessage);
    const rows = await database.db('sms_prices')
      .orderBy('id')
      .select('sms_id', 'provider_message_id', 'price', 'price_unit', database.db.raw('fetched_at IS NOT NULL AS fetched'), database.db.raw('given_up_at IS NOT NULL AS given_up'));
    const row = (fields: Record<string, unknown>) => ({ provider_message_id: null, price: null, price_unit: null, fetched: false, given_up: false, ...fields });
    expect(rows).toEqual(expect.arrayContaining([
      row({ sms_id: priced, provider_message_id: sid(1), price: '0.07400', price_unit: 'EUR', fetched: true }),
      row({ sms_id: givenUp, provider_message_id: sid(2), given_up: true }),
      row({ sms_id: open, provider_message_id: sid(3) }),
      row({ sms_id: resent, price: '0.07400', price_unit: 'EUR', fetched: true }),
      row({ sms_id: resent, provider_message_id: sid(4) }),
    ]));
    expect(rows).toHaveLength(5);
    expect(rows.some((entry: { sms_id: number }) => entry.sms_id === notFinal)).toBe(false);
    expect(await database.db('information_schema.columns').where({ table_name: 'sms_messages' }).pluck('column_name')).not.toContain('price');
    await expect(database.db('sms_prices').insert({ sms_id: open, provider_message_id: sid(6), price: '0.1' })).rejects.toThrow(/sms_prices_stored_check/);

    // A resend's message priced: the rollback adds it to the earlier ones'.
    await database.db('sms_prices').where({ provider_message_id: sid(4) }).update({ price: '0.07400', price_unit: 'EUR', fetched_at: at });
    await database.db.migrate.down(smsPricesPerMessage);
    const back = async (id: number) =>
      database.db('sms_messages').where({ id }).first('price', 'price_unit', database.db.raw('price_fetched_at IS NOT NULL AS ended'));
    expect(await back(resent)).toEqual({ price: '0.14800', price_unit: 'EUR', ended: true });
    expect(await back(givenUp)).toEqual({ price: null, price_unit: null, ended: true });
    expect(await back(open)).toEqual({ price: null, price_unit: null, ended: false });
    await database.db.migrate.up(smsPricesPerMessage);
  });
});
