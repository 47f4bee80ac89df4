import { marketingConsentText } from '@guida/shared/messages';

/** The field's name: a form posted without JavaScript sends it as "on" when ticked. */
const MARKETING_CONSENT_FIELD = 'marketingConsent';

/**
 * The optional marketing consent: unticked, separate from the required privacy consent,
 * never needed to get the guide. A plain checkbox the form reads when it is sent, so it
 * works the same with and without JavaScript.
 */
export function MarketingConsentField({ id }: { id: string }) {
  return (
    <div className="flex items-start gap-3">
      <input
        id={id}
        type="checkbox"
        name={MARKETING_CONSENT_FIELD}
        className="mt-1 h-5 w-5 shrink-0 accent-emerald-700"
      />
      <label htmlFor={id} className="text-sm text-slate-700">
        {marketingConsentText}
      </label>
    </div>
  );
}

/** Whether the visitor ticked the marketing consent of this form. */
export function marketingConsentOf(form: HTMLFormElement | undefined) {
  const box = form?.elements.namedItem(MARKETING_CONSENT_FIELD);
  return box instanceof HTMLInputElement && box.checked;
}
