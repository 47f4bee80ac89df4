import type { LeadSummary } from '@guida/shared/schemas/admin';
import { EMPTY_VALUE, formatDateTime } from '../ui/admin-format';
import { Facts } from '../ui/admin-ui';

/**
 * Verified leads (decision 059): reachable when the SMS was reported delivered, engaged
 * when the guide was downloaded, verified when either holds, since the earlier of the two.
 */

type Verification = Pick<LeadSummary, 'reachableAt' | 'engagedAt'>;

const BADGE = 'mb-1 mr-1 inline-block rounded px-2 py-0.5 text-xs font-semibold';

/** The earlier of the two times; null while the lead is not verified. */
const verifiedAt = ({ reachableAt, engagedAt }: Verification) =>
  [reachableAt, engagedAt].filter((at): at is string => at !== null).sort()[0] ?? null;

/** In the leads table: what made the lead verified, or that nothing has yet. */
export function VerificationBadges({ lead }: { lead: Verification }) {
  if (verifiedAt(lead) === null) return <span className={`${BADGE} bg-slate-100 text-slate-800`}>Non verificato</span>;
  return (
    <>
      {lead.reachableAt ? (
        <span className={`${BADGE} bg-emerald-100 text-emerald-900`}>
          SMS consegnato<span className="sr-only"> il {formatDateTime(lead.reachableAt)}</span>
        </span>
      ) : null}
      {lead.engagedAt ? (
        <span className={`${BADGE} bg-emerald-100 text-emerald-900`}>
          Guida aperta<span className="sr-only"> il {formatDateTime(lead.engagedAt)}</span>
        </span>
      ) : null}
    </>
  );
}

/** In the lead's detail: both times, and whether (since when) the lead is verified. */
export function VerificationFacts({ lead }: { lead: Verification }) {
  const since = verifiedAt(lead);
  return (
    <Facts
      items={[
        ['Verificato', since ? `Sì, dal ${formatDateTime(since)}` : 'No'],
        ['SMS consegnato il (raggiungibile)', lead.reachableAt ? formatDateTime(lead.reachableAt) : EMPTY_VALUE],
        ['Guida aperta il (coinvolto)', lead.engagedAt ? formatDateTime(lead.engagedAt) : EMPTY_VALUE],
      ]}
    />
  );
}
