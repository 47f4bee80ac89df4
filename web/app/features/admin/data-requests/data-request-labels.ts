import { GDPR_REQUEST_STATUS_LABELS, GDPR_REQUEST_TYPE_LABELS } from '@guida/shared/gdpr-rules';
import type { DataRequestList } from '@guida/shared/schemas/admin';
import { labelOf } from '../ui/admin-format';

export type DataRequest = DataRequestList['items'][number];

export const requestTypeLabel = (type: string) => labelOf(GDPR_REQUEST_TYPE_LABELS, type);
export const requestStatusLabel = (status: string) => labelOf(GDPR_REQUEST_STATUS_LABELS, status);
