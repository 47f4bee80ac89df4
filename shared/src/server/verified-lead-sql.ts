/**
 * Verified leads (decision 059), as SQL over ebook_requests under an alias: reachable once
 * the provider first reported its SMS delivered (`reachable_at`), engaged once its guide was
 * first really downloaded (`engaged_at`), verified when either holds, since the earlier of
 * the two. The overview, the leads table and its CSV, the funnel and the conversion uploads
 * all count by these, so one lead is verified alike everywhere.
 */

/** SQL: the lead's SMS was delivered. */
export const isReachableSql = (alias: string) => `(${alias}.reachable_at IS NOT NULL)`;

/** SQL: the lead opened its guide. */
export const isEngagedSql = (alias: string) => `(${alias}.engaged_at IS NOT NULL)`;

/** SQL: the lead is verified (reachable or engaged). */
export const isVerifiedSql = (alias: string) => `(${isReachableSql(alias)} OR ${isEngagedSql(alias)})`;

/** SQL: when the lead became verified; NULL while it is not (LEAST ignores NULLs). */
export const verifiedAtSql = (alias: string) => `LEAST(${alias}.reachable_at, ${alias}.engaged_at)`;
