import { UnrecoverableError, type Job } from 'bullmq';
import type { Knex } from 'knex';
import { deliverToCrmJob } from '@guida/shared/jobs/crm';
import { completeRectificationJob, erasePersonalDataJob, exportPersonalDataJob } from '@guida/shared/jobs/gdpr';
import type { JobQueues } from '@guida/shared/server/job-queues';
import type { Logger } from '@guida/shared/server/logger';
import { unsentLeadDeletedDeliveries } from '@guida/shared/deliveries/crm-deliveries';
import { scheduleEmail } from '@guida/shared/deliveries/email-deliveries';
import { cancelJobsOfLeads } from './cancel-lead-jobs';
import { loadDataRequest, markCompleted, type DataRequestRow } from './data-requests.repo';
import { eraseLeads, leadsOfEmail } from './erasure';
import { collectPersonalData, personalDataCsv } from './personal-data-export';

export interface GdprJobDeps {
  db: Knex;
  queues: JobQueues;
  logger: Logger;
  retentionMonths: number;
  /** Keys the suppression list's hashes: an export says whether the person is on it. */
  suppressionHashSecret: string;
}

/** The request, if it is still this job's business (an admin accepted it). */
async function requestToProcess(db: Knex, id: number, types: DataRequestRow['request_type'][]) {
  const request = await loadDataRequest(db, id);
  if (!request) return null;
  if (!types.includes(request.request_type)) {
    throw new UnrecoverableError(`data request ${id} is a ${request.request_type} request`);
  }
  return request.status === 'processing' || request.status === 'completed' ? request : null;
}

/** Enqueues the lead.deleted deliveries of these (erased) leads that are still pending. */
export async function enqueueLeadDeletedEvents(deps: Pick<GdprJobDeps, 'db' | 'queues' | 'logger'>, leadIds: number[]) {
  if (leadIds.length === 0) return 0;
  const pending = await unsentLeadDeletedDeliveries(deps.db, leadIds);
  await deps.queues
    .enqueueMany(
      deliverToCrmJob,
      pending.map((row) => ({ deliveryId: row.id, leadId: row.subject_lead_id, event: 'lead.deleted' as const })),
    )
    .catch((error: unknown) => {
      deps.logger.warn({ err: (error as Error).message }, 'lead.deleted not enqueued; the sweeper will add it');
    });
  return pending.length;
}

/** Deletion: erase once (in one transaction), then tell the CRM and the requester. */
async function erasePersonalData(deps: GdprJobDeps, id: number): Promise<string> {
  const request = await requestToProcess(deps.db, id, ['deletion']);
  if (!request) return 'skipped: not accepted or no longer exists';
  let erasedNow = false;
  if (!request.erased_at) {
    if (!request.email) throw new UnrecoverableError(`data request ${id} has no address`);
    const email = request.email;
    // Queued jobs first: an SMS must not leave for a number that is being erased.
    const leadIds = await deps.db('ebook_requests').where({ email }).pluck('id');
    const emailIds = await deps.db('email_messages').whereIn('lead_id', leadIds).pluck('id');
    await cancelJobsOfLeads(deps.queues, leadIds, emailIds);
    erasedNow = await deps.db.transaction(async (trx) => {
      const locked = await trx('gdpr_data_requests').where({ id }).forUpdate().first('erased_at');
      if (locked?.erased_at) return false;
      const leads = await leadsOfEmail(trx, email);
      await eraseLeads(trx, leads, { reason: 'request', dataRequestId: id, person: { email } });
      await trx('gdpr_data_requests').where({ id }).update({ erased_at: trx.fn.now() });
      return true;
    });
  }
  // Also on a retry after a crash: whatever is still pending goes out now.
  const erasures = await deps.db('gdpr_erasures').where({ data_request_id: id }).pluck<number[][]>('lead_ids');
  const events = await enqueueLeadDeletedEvents(deps, erasures.flat());
  await scheduleEmail(deps, { dataRequestId: id }, 'gdpr-completed');
  await markCompleted(deps.db, id);
  deps.logger.info({ dataRequestId: id, crmEvents: events }, erasedNow ? 'personal data erased' : 'erasure already done');
  return erasedNow ? 'erased' : 'already erased';
}

/** Access and portability: the export is built once, its link minted when emailed. */
async function exportPersonalData(deps: GdprJobDeps, id: number): Promise<string> {
  const request = await requestToProcess(deps.db, id, ['access', 'portability']);
  if (!request) return 'skipped: not accepted or no longer exists';
  if (!request.email) throw new UnrecoverableError(`data request ${id} has no address`);
  const existing = await deps.db('gdpr_exports').where({ data_request_id: id }).first('id');
  if (!existing) {
    const exported = await collectPersonalData(deps.db, request.email, {
      retentionMonths: deps.retentionMonths,
      suppressionHashSecret: deps.suppressionHashSecret,
    });
    await deps.db('gdpr_exports')
      .insert({
        data_request_id: id,
        json_body: JSON.stringify(exported, null, 2),
        csv_body: personalDataCsv(exported),
      })
      .onConflict('data_request_id')
      .ignore();
  }
  await scheduleEmail(deps, { dataRequestId: id }, 'gdpr-export');
  await markCompleted(deps.db, id);
  deps.logger.info({ dataRequestId: id }, 'personal data export ready');
  return 'exported';
}

/** Rectification: the admin corrected the lead (the CRM got lead.updated); confirm it. */
async function completeRectification(deps: GdprJobDeps, id: number): Promise<string> {
  const request = await requestToProcess(deps.db, id, ['rectification']);
  if (!request) return 'skipped: not accepted or no longer exists';
  await scheduleEmail(deps, { dataRequestId: id }, 'gdpr-completed');
  await markCompleted(deps.db, id);
  return 'completed';
}

/** The gdpr queue's processor: one step per job name, each idempotent. */
export function createProcessDataRequest(deps: GdprJobDeps) {
  return async function processDataRequest(job: Job): Promise<string> {
    switch (job.name) {
      case erasePersonalDataJob.name:
        return erasePersonalData(deps, erasePersonalDataJob.schema.parse(job.data).dataRequestId);
      case exportPersonalDataJob.name:
        return exportPersonalData(deps, exportPersonalDataJob.schema.parse(job.data).dataRequestId);
      case completeRectificationJob.name:
        return completeRectification(deps, completeRectificationJob.schema.parse(job.data).dataRequestId);
      default:
        throw new UnrecoverableError(`unknown gdpr job ${job.name}`);
    }
  };
}
