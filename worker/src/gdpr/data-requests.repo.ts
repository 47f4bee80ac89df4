import type { Knex } from 'knex';
import type { GdprRequestStatus, GdprRequestType } from '@guida/shared/gdpr-rules';

export interface DataRequestRow {
  id: number;
  email: string | null;
  request_type: GdprRequestType;
  status: GdprRequestStatus;
  erased_at: Date | null;
}

export function loadDataRequest(db: Knex, id: number) {
  return db('gdpr_data_requests')
    .where({ id })
    .first<DataRequestRow | undefined>('id', 'email', 'request_type', 'status', 'erased_at');
}

/** The worker's last step: processing → completed (a no-op when already completed). */
export async function markCompleted(db: Knex, id: number) {
  await db('gdpr_data_requests')
    .where({ id, status: 'processing' })
    .update({ status: 'completed', completed_at: db.fn.now() });
}
