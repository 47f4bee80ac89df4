/**
 * The front door of data rights for the rest of the worker (decision 022): erasing leads
 * and telling the CRM, which retention does too, and forgetting a deletion requester once
 * the last email to them went out.
 */
export { eraseLeads, forgetDeletionRequester, leadsOfEmail, type LeadIdentity } from './erasure';
export { enqueueLeadDeletedEvents } from './process-data-request';
