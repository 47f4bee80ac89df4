import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { smsBudgetMessages as t } from '@guida/shared/messages';
import { heldSmsCriteriaSchema, type HeldSmsCount, type HeldSmsCriteriaInput, type HeldSmsCriteriaQuery } from '@guida/shared/schemas/admin';
import { Checkbox, Field, FormAlert, SubmitButton } from '../../../components/ui/form';
import { errorMessage } from '../admin-api';
import { refreshesLeads } from '../leads/lead-queries';
import { ConfirmAction } from '../ui/confirm-action';
import { schemaResolver } from '../ui/schema-resolver';
import { countHeldSms, criteriaBody, refreshesBudget, SMS_BUDGET_DISCARD_URL } from './sms-budget-queries';

const resolver = schemaResolver(heldSmsCriteriaSchema);
const EMPTY: HeldSmsCriteriaInput = { block: '', network: '', address: '', from: '', to: '', untrustedOnly: false };
/** Discarded SMS leave the held count and change their leads' status. */
const refreshesBudgetAndLeads = (queryUrl: string) => refreshesBudget(queryUrl) || refreshesLeads(queryUrl);

/**
 * The admin's discard of held SMS (decision 052): the criteria (number block, the
 * visitor's network or address, a time range, only the untrusted), a search that says how
 * many held SMS they match, then "Scarta N SMS" behind a confirmation naming that count.
 * The discard posts exactly the criteria that were counted; changing a field asks for a
 * new search first.
 */
export function DiscardHeldSms({ onClose }: { onClose: () => void }) {
  const [found, setFound] = useState<{ criteria: HeldSmsCriteriaQuery; count: HeldSmsCount } | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const {
    register,
    handleSubmit,
    formState: { errors, isSubmitting },
  } = useForm<HeldSmsCriteriaInput, unknown, HeldSmsCriteriaQuery>({ resolver, defaultValues: EMPTY });
  // The schema's "at least one criterion" has no field of its own.
  const noCriteria = (errors as Record<string, { message?: string } | undefined>).criteria?.message;

  const search = handleSubmit(async (criteria) => {
    setFailure(null);
    try {
      setFound({ criteria, count: await countHeldSms(criteria) });
    } catch (error) {
      setFound(null);
      setFailure(errorMessage(error));
    }
  });

  return (
    <div className="mt-3 max-w-2xl rounded-md border border-red-300 bg-white p-4 text-slate-900">
      <h3 className="text-base font-bold">{t.discardTitle}</h3>
      <p className="mt-1 text-sm text-slate-700">{t.discardIntro}</p>
      <form
        noValidate
        className="mt-3 grid gap-3 sm:grid-cols-2"
        onSubmit={(event) => void search(event)}
        // What was counted is what a discard takes: a changed criterion needs a new search.
        onChange={() => setFound(null)}
      >
        <Field size="sm" label={t.discardBlock} inputMode="numeric" error={errors.block?.message} {...register('block')} />
        <Field size="sm" label={t.discardNetwork} error={errors.network?.message} {...register('network')} />
        <Field size="sm" label={t.discardAddress} error={errors.address?.message} {...register('address')} />
        <div className="hidden sm:block" />
        <Field size="sm" type="datetime-local" label={t.discardFrom} error={errors.from?.message} {...register('from')} />
        <Field size="sm" type="datetime-local" label={t.discardTo} error={errors.to?.message} {...register('to')} />
        <div className="sm:col-span-2">
          <Checkbox label={t.discardUntrustedOnly} {...register('untrustedOnly')} />
        </div>
        {noCriteria ? (
          <div className="sm:col-span-2">
            <FormAlert>{noCriteria}</FormAlert>
          </div>
        ) : null}
        {failure ? (
          <div className="sm:col-span-2">
            <FormAlert>{failure}</FormAlert>
          </div>
        ) : null}
        <div className="flex flex-wrap gap-2 sm:col-span-2">
          <SubmitButton pending={isSubmitting} pendingLabel="Ricerca in corso...">
            {t.discardSearch}
          </SubmitButton>
          <button type="button" className="btn-secondary" onClick={onClose}>
            Chiudi
          </button>
        </div>
      </form>
      {found ? (
        <div className="mt-3" aria-live="polite">
          <p className="text-sm font-semibold">{t.discardMatches(found.count.count, found.count.trusted)}</p>
          {found.count.count > 0 ? (
            <div className="mt-2">
              <ConfirmAction
                label={t.discard(found.count.count)}
                question={t.discardConfirm(found.count.count)}
                url={SMS_BUDGET_DISCARD_URL}
                body={criteriaBody(found.criteria)}
                refreshes={refreshesBudgetAndLeads}
                onDone={onClose}
                danger
              />
            </div>
          ) : null}
        </div>
      ) : null}
    </div>
  );
}
