import { z } from 'zod';
import type { GdprRequestType } from '../gdpr-rules';
import { defineJob, type JobDefinition } from './definition';

/**
 * The processing steps of a data request an admin has accepted. Each job reads the
 * request from Postgres (the payload is its id) and is idempotent, so retries and a
 * second enqueue by the sweeper are harmless.
 */
const dataRequestPayload = z.object({ dataRequestId: z.number().int().positive() });
type DataRequestJob = JobDefinition<typeof dataRequestPayload>;

/** Access and portability: builds the JSON and CSV export and emails its personal link. */
export const exportPersonalDataJob: DataRequestJob = defineJob({
  queue: 'gdpr',
  name: 'export-personal-data',
  schema: dataRequestPayload,
  jobId: ({ dataRequestId }) => `gdpr-export-${dataRequestId}`,
  attempts: 8,
});

/** Deletion: erases the person's data everywhere and tells the CRM (lead.deleted). */
export const erasePersonalDataJob: DataRequestJob = defineJob({
  queue: 'gdpr',
  name: 'erase-personal-data',
  schema: dataRequestPayload,
  jobId: ({ dataRequestId }) => `gdpr-erase-${dataRequestId}`,
  attempts: 8,
});

/** Rectification: the admin corrected the lead (CRM got lead.updated); tell the person. */
export const completeRectificationJob: DataRequestJob = defineJob({
  queue: 'gdpr',
  name: 'complete-rectification',
  schema: dataRequestPayload,
  jobId: ({ dataRequestId }) => `gdpr-rectification-${dataRequestId}`,
  attempts: 8,
});

export const GDPR_JOB_FOR_REQUEST_TYPE: Record<GdprRequestType, DataRequestJob> = {
  access: exportPersonalDataJob,
  portability: exportPersonalDataJob,
  deletion: erasePersonalDataJob,
  rectification: completeRectificationJob,
};
