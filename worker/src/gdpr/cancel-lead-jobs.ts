import type { JobType } from 'bullmq';
import type { JobQueues } from '@guida/shared/server/job-queues';

/** Jobs not running right now; failed ones too (their reason may quote a number or address). */
const STATES: JobType[] = ['waiting', 'delayed', 'prioritized', 'failed'];
/** sms and crm job ids start with the lead: lead-12, lead-12-lead-updated-…. */
const LEAD_JOB_ID = /^lead-(\d+)(?:-|$)/;
const EMAIL_JOB_ID = /^email-(\d+)$/;

/**
 * Removes the queued SMS, CRM and email jobs of leads about to be erased. Job ids are
 * deterministic, so only ids are read (no job data). A job running right now cannot be
 * removed; it finds no rows once the erasure committed and stops there.
 */
export async function cancelJobsOfLeads(queues: JobQueues, leadIds: number[], emailMessageIds: number[]) {
  const leads = new Set(leadIds);
  const emails = new Set(emailMessageIds);
  let removed = 0;
  const sweep = async (name: 'sms' | 'crm' | 'email', belongs: (jobId: string) => boolean) => {
    const queue = queues.queue(name);
    const ids = await queue.getRanges(STATES, 0, -1);
    for (const id of new Set(ids)) {
      if (belongs(id)) removed += await queue.remove(id);
    }
  };
  const ofLead = (jobId: string) => {
    const match = LEAD_JOB_ID.exec(jobId);
    return match !== null && leads.has(Number(match[1]));
  };
  if (leads.size > 0) {
    await sweep('sms', ofLead);
    await sweep('crm', ofLead);
  }
  if (emails.size > 0) {
    await sweep('email', (jobId) => {
      const match = EMAIL_JOB_ID.exec(jobId);
      return match !== null && emails.has(Number(match[1]));
    });
  }
  return removed;
}
