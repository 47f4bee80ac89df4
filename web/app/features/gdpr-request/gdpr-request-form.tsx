import { useEffect, useRef } from 'react';
import { useForm, type Resolver } from 'react-hook-form';
import type { z } from 'zod';
import { gdprFormTexts as texts } from '@guida/shared/gdpr-messages';
import { GDPR_REQUEST_TYPE_LABELS, GDPR_REQUEST_TYPES, GDPR_TEXT_MAX_LENGTH } from '@guida/shared/gdpr-rules';
import { HONEYPOT_FIELD } from '@guida/shared/lead-rules';
import { challengeMessages, formMessages } from '@guida/shared/messages';
import type { gdprRequestFormSchema } from '@guida/shared/schemas/gdpr';
import { Field, FormAlert, SubmitButton } from '../../components/ui/form';
import { useLoadOnFirstFocus } from '../../lib/load-on-first-focus';
import { ChallengeSlot, useChallengedSubmission } from '../challenge';

type Values = { email: string; requestType: string; details: string };
type Parsed = z.output<typeof gdprRequestFormSchema>;

const loadSchema = () => import('./gdpr-request-schema');
/** The shared schema's resolver, loaded when first needed (gdpr-request-schema.ts). */
const resolver: Resolver<Values, unknown, Parsed> = async (values, context, options) =>
  (await loadSchema()).gdprRequestResolver(values as never, context, options as never);

/**
 * The data-rights request form of /gdpr. Without JavaScript it is a plain POST that the API
 * answers with a page; with JavaScript react-hook-form validates it with the shared schema
 * (the spec's messages) and a mutation sends it, the answer shown in place. The "what to
 * correct" box appears for a rectification through CSS (:has on the chosen option), so it
 * works before hydration too.
 */
export function GdprRequestForm() {
  const formRef = useRef<HTMLFormElement>(null);
  const doneRef = useRef<HTMLHeadingElement>(null);
  useLoadOnFirstFocus(formRef, loadSchema);
  const {
    register,
    handleSubmit,
    setError,
    reset,
    formState: { errors },
  } = useForm<Values, unknown, Parsed>({ resolver });

  const { challenge, submit, mutation, busy, failure } = useChallengedSubmission<Record<string, unknown>, { message: string }>(formRef, {
    url: '/api/gdpr/requests',
    parse: async (answer) => (await loadSchema()).parseAccepted(answer),
    onError: (answer) => {
      for (const [field, message] of Object.entries(answer?.errors ?? {})) {
        if (field === 'email' || field === 'requestType' || field === 'details') setError(field, { message });
      }
    },
  });
  useEffect(() => {
    if (mutation.isSuccess) doneRef.current?.focus();
  }, [mutation.isSuccess]);

  const onValid = (values: Parsed, event?: React.BaseSyntheticEvent) => {
    const form = event?.target as HTMLFormElement | undefined;
    const honeypot = (form?.elements.namedItem(HONEYPOT_FIELD) as HTMLInputElement | null)?.value ?? '';
    submit({
      email: values.email,
      requestType: values.requestType,
      ...(values.requestType === 'rectification' && values.details ? { details: values.details } : {}),
      [HONEYPOT_FIELD]: honeypot,
    });
  };

  if (mutation.isSuccess) {
    return (
      <div role="status" className="mt-4 rounded-lg bg-emerald-50 p-5 text-emerald-950 ring-1 ring-emerald-200">
        <h3 ref={doneRef} tabIndex={-1} className="text-lg font-bold focus:outline-none">
          {texts.successTitle}
        </h3>
        <p className="mt-2">{mutation.data.message}</p>
        <p className="mt-2">{texts.successNext}</p>
        <button
          type="button"
          className="btn-secondary mt-4"
          onClick={() => {
            reset();
            mutation.reset();
          }}
        >
          {texts.another}
        </button>
      </div>
    );
  }

  return (
    <form
      ref={formRef}
      id="richiesta-gdpr"
      method="post"
      action="/api/gdpr/requests"
      noValidate
      aria-label="Richiesta sui dati personali"
      onSubmit={(event) => void handleSubmit(onValid)(event)}
      className="mt-4 flex flex-col gap-4"
    >
      <div className="hidden">
        <label>
          Lascia vuoto questo campo
          <input type="text" name={HONEYPOT_FIELD} tabIndex={-1} autoComplete="off" defaultValue="" />
        </label>
      </div>
      <Field
        label={texts.emailLabel}
        description={texts.emailHint}
        type="email"
        autoComplete="email"
        inputMode="email"
        error={errors.email?.message}
        {...register('email')}
      />
      <Field as="select" label={texts.typeLabel} error={errors.requestType?.message} {...register('requestType')}>
        <option value="">{texts.typePlaceholder}</option>
        {GDPR_REQUEST_TYPES.map((type) => (
          <option key={type} value={type}>
            {GDPR_REQUEST_TYPE_LABELS[type]}
          </option>
        ))}
      </Field>
      <div className="hidden [form:has(option[value=rectification]:checked)_&]:block">
        <Field
          as="textarea"
          label={texts.detailsLabel}
          description={texts.detailsHint}
          rows={4}
          maxLength={GDPR_TEXT_MAX_LENGTH}
          error={errors.details?.message}
          {...register('details')}
        />
      </div>
      <ChallengeSlot challenge={challenge} />
      {failure !== undefined ? <FormAlert>{failure ?? formMessages.errorFallbackNewerPages}</FormAlert> : null}
      <SubmitButton
        pending={busy}
        pendingLabel={challenge.waiting ? challengeMessages.verifying : formMessages.submitting}
        className="self-start px-6 py-3 text-base"
      >
        {texts.submit}
      </SubmitButton>
    </form>
  );
}
