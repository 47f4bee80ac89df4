/**
 * The visitor's cookie choice (spec section 7): recorded append-only, read back by the
 * browser, and read by the lead's insert to decide what it may keep of the ad click
 * (decision 049).
 */
export { marketingChoiceSql } from './consent.repo';
