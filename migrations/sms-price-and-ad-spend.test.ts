import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '@guida/testing/test-database';
import { migrationConfig } from './index';

const smsPriceAndAdSpend = { ...migrationConfig, name: '20261206100000_sms_price_and_ad_spend' };
// Moves the price columns to sms_prices: rolled back first, so the columns are there.
const smsPricesPerMessage = { ...migrationConfig, name: '20261206120000_sms_prices_per_message' };

let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(async () => {
  await database.drop();
});

const columnsOf = async (table: string) =>
  (await database.db('information_schema.columns').where({ table_name: table }).pluck('column_name')).sort();

describe('migration 20261206100000_sms_price_and_ad_spend', () => {
  it('keeps prices as costs in a currency, one spend per day and campaign, and rolls back', async () => {
    await database.db.migrate.down(smsPricesPerMessage);
    const [lead] = await database.db('ebook_requests')
      .insert({ nome: 'A', cognome: 'B', email: 'a@b.it', telefono: '+393471230001' })
      .returning<{ id: number }[]>('id');
    await database.db('sms_messages').insert({ lead_id: lead!.id, price: '0.07400', price_unit: 'EUR' });
    await expect(database.db('sms_messages').where({ lead_id: lead!.id }).update({ price: '-0.07400' })).rejects.toThrow(/sms_messages_price_check/);
    await expect(database.db('sms_messages').where({ lead_id: lead!.id }).update({ price_unit: 'eur' })).rejects.toThrow(/price_unit_check/);

    const spend = { day: '2026-11-05', utm_source: 'google', amount: '10.00', import_id: '00000000-0000-4000-8000-000000000000' };
    await database.db('ad_spend').insert(spend);
    expect(await database.db('ad_spend').first('utm_campaign', 'currency')).toEqual({ utm_campaign: '', currency: 'EUR' });
    await expect(database.db('ad_spend').insert(spend)).rejects.toThrow(/unique/);
    await expect(database.db('ad_spend').insert({ ...spend, day: '2026-11-06', amount: '-1' })).rejects.toThrow(/ad_spend_amount_check/);

    await database.db.migrate.down(smsPriceAndAdSpend);
    expect(await columnsOf('ad_spend')).toEqual([]);
    expect(await columnsOf('sms_messages')).not.toContain('price');
    await database.db.migrate.up(smsPriceAndAdSpend);
    expect(await columnsOf('sms_messages')).toEqual(expect.arrayContaining(['price', 'price_fetched_at', 'price_unit']));
    expect(await columnsOf('ad_spend')).toContain('import_id');
    await database.db.migrate.up(smsPricesPerMessage);
  });
});
