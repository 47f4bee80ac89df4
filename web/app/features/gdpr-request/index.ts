export { GdprRequestForm } from './gdpr-request-form';
