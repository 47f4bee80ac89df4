/** What other features may use of analytics: whether a client was seen on the site. */
export { lastSeenOnline } from './presence';
