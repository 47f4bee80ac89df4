import { DIRECT_SOURCE } from '../analytics-rules';
import { CLICK_ID_FIELDS, FIRST_TOUCH_PREFIX, TOUCH_COLUMNS } from '../attribution-rules';
import { DEFAULT_UTM_SOURCE } from '../lead-rules';

/**
 * The admin's "no campaign" bucket (DIRECT_SOURCE, "Diretto (nessuna campagna)") is one
 * rule for visits and leads: utm_source NULL (a landing without it; a lead stored before
 * the default) or DEFAULT_UTM_SOURCE (a lead stored since, or a landing whose address
 * said so). Every query that groups, filters or shows campaigns uses these, so a lead and
 * the visit it came from land in the same bucket (decision 045).
 */

/** SQL: whether a utm_source column (or expression) is in the direct bucket. */
export const isDirectSourceSql = (column: string) => `(${column} IS NULL OR ${column} = '${DEFAULT_UTM_SOURCE}')`;

/** SQL: a utm_source column as the admin groups it, DIRECT_SOURCE for the direct bucket. */
export const campaignSourceSql = (column: string) =>
  `CASE WHEN ${isDirectSourceSql(column)} THEN '${DIRECT_SOURCE}' ELSE ${column} END`;

/** The same rule on a value read back from a row. */
export const isDirectSource = (value: string | null) => value === null || value === DEFAULT_UTM_SOURCE;

/**
 * A utm_source filter as the bucket it selects: DIRECT_SOURCE, and DEFAULT_UTM_SOURCE
 * typed as it is stored, both select the direct bucket.
 */
export const campaignSourceFilter = (value: string | undefined) =>
  value === DEFAULT_UTM_SOURCE ? DIRECT_SOURCE : value;

/**
 * SQL: whether a lead (ebook_requests under `alias`) came from an ad click: a click id of
 * an ad platform (CLICK_ID_FIELDS) with its first or its last touch.
 */
export const hasAdClickIdSql = (alias: string) =>
  `(coalesce(${CLICK_ID_FIELDS.flatMap((field) => [`${alias}.${TOUCH_COLUMNS[field]}`, `${alias}.${FIRST_TOUCH_PREFIX}${TOUCH_COLUMNS[field]}`]).join(', ')}) IS NOT NULL)`;
