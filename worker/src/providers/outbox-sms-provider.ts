import type { Knex } from 'knex';
import type { Logger } from '@guida/shared/server/logger';
import type { SmsProvider } from './sms-provider';

/** Development provider: the message is stored in outbox_messages, nothing leaves the machine. */
export function createOutboxSmsProvider(db: Knex, logger: Logger): SmsProvider {
  return {
    name: 'outbox',
    async send({ to, body, leadId }) {
      const [row] = await db('outbox_messages')
        .insert({ channel: 'sms', recipient: to, body })
        .returning<{ id: number }[]>('id');
      logger.info({ leadId, outboxId: row!.id }, 'SMS stored in the outbox (SMS_PROVIDER=outbox)');
      return { providerMessageId: `outbox-${row!.id}` };
    },
    async findSent({ to, marker, since }) {
      const row = await db('outbox_messages')
        .where({ channel: 'sms', recipient: to })
        .where('created_at', '>=', since)
        .whereRaw('position(? in body) > 0', [marker])
        .orderBy('id', 'desc')
        .first<{ id: number } | undefined>('id');
      return row ? { providerMessageId: `outbox-${row.id}` } : null;
    },
  };
}
