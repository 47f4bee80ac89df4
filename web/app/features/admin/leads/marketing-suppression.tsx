import type { ReactNode } from 'react';
import type { ContactKind, WithdrawalSource } from '@guida/shared/marketing-withdrawal';
import type { LeadDetail } from '@guida/shared/schemas/admin';
import { formatDateTime } from '../ui/admin-format';
import { Facts } from '../ui/admin-ui';

const KIND_LABELS: Record<ContactKind, string> = { email: 'email', phone: 'telefono' };
const SOURCE_LABELS: Record<WithdrawalSource, string> = {
  email: 'dalla persona, con il link di un’email',
  admin: 'da un operatore',
};

/** In the leads table: this lead's email or phone refused marketing (decision 048). */
export function SuppressedBadge({ since }: { since: string }) {
  return (
    <span className="mt-1 inline-block rounded bg-amber-100 px-2 py-0.5 text-xs font-semibold text-amber-900">
      Marketing soppresso<span className="sr-only"> dal {formatDateTime(since)}</span>
    </span>
  );
}

/**
 * The lead's entry on the suppression list: which contacts, since when, how, and whether
 * this request's own consent came after it (a new consent, valid as given).
 */
export function SuppressionDetail({ detail }: { detail: LeadDetail }) {
  const { lead, suppression } = detail;
  if (!suppression) {
    return <p className="text-sm text-slate-700">Né l’email né il telefono di questo lead sono nella lista di soppressione.</p>;
  }
  const kinds = suppression.kinds.map((kind) => KIND_LABELS[kind]).join(' e ');
  const facts: [string, ReactNode][] = [
    ['Nella lista', kinds.charAt(0).toUpperCase() + kinds.slice(1)],
    ['Ultima revoca', formatDateTime(suppression.suppressedAt)],
    ['Registrata', SOURCE_LABELS[suppression.source]],
  ];
  const consentAfter = lead.marketingConsent && lead.marketingConsentWithdrawnAt === null && lead.createdAt > suppression.suppressedAt;
  return (
    <>
      <Facts items={facts} />
      <p className="mt-2 text-sm text-slate-800">
        {consentAfter
          ? 'Questa richiesta ha dato il consenso marketing dopo l’ultima revoca: è un consenso nuovo, registrato come dato.'
          : 'Non inviare comunicazioni promozionali a questi contatti.'}
      </p>
    </>
  );
}
