export { LeadForm, type LeadFormProps } from './lead-form';
