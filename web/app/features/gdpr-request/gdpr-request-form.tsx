import { useEffect, useId, useRef } from 'react';
import { gdprFormTexts as texts } from '@guida/shared/gdpr-messages';
import { GDPR_REQUEST_TYPE_LABELS, GDPR_REQUEST_TYPES, GDPR_TEXT_MAX_LENGTH, type GdprRequestType } from '@guida/shared/gdpr-rules';
import { HONEYPOT_FIELD } from '@guida/shared/lead-rules';
import { challengeMessages, formMessages } from '@guida/shared/messages';
import { ApiError, apiRequest } from '../../lib/api-client';
import { useLoadOnFirstFocus } from '../../lib/load-on-first-focus';
import { useSubmission } from '../../lib/use-submission';
import { useValidatedForm } from '../../lib/validated-form';
import { ChallengeSlot } from '../challenge/challenge-slot';
import { asksForChallenge, CHALLENGE_FIELD, useChallenge } from '../challenge/use-challenge';

type Values = { email: string; requestType: string; details: string };
type Parsed = { email: string; requestType: GdprRequestType; details: string | null };

const loadValidation = () => import('./gdpr-request-validation');

/** The shared schema, loaded when first needed (see gdpr-request-validation.ts). */
const validate = async (values: Values) => (await loadValidation()).validateGdprRequest(values);

const FIELDS: (keyof Values)[] = ['email', 'requestType', 'details'];

const INPUT_CLASS =
  'w-full rounded-md border border-slate-400 bg-white px-3 py-2 text-base text-slate-900 placeholder:text-slate-500 focus:border-emerald-700 focus:outline-none focus:ring-2 focus:ring-emerald-700/40 aria-[invalid=true]:border-red-700';

/** Ids of the hint and the error that describe a field (only those shown). */
const describedBy = (...ids: (string | false | undefined)[]) => ids.filter(Boolean).join(' ') || undefined;

/**
 * The data-rights request form of /gdpr. Without JavaScript it is a plain POST that the API
 * answers with a page; with JavaScript it validates with the shared schema (the spec's
 * messages) and shows the answer in place. The "what to correct" box appears for a
 * rectification through CSS (:has on the chosen option), so it works before hydration too.
 */
export function GdprRequestForm() {
  const id = useId();
  const formRef = useRef<HTMLFormElement>(null);
  const doneRef = useRef<HTMLHeadingElement>(null);
  useLoadOnFirstFocus(formRef, loadValidation);
  const challenge = useChallenge(formRef);
  /** A submission refused for want of a challenge is sent again once, when it is solved. */
  const resent = useRef(false);
  const {
    register,
    handleSubmit,
    setError,
    reset,
    formState: { errors },
  } = useValidatedForm<Values, Parsed>(validate);

  const submission = useSubmission({
    send: async (payload: Record<string, unknown>) => {
      const solution = challenge.take();
      const body = solution ? { ...payload, [CHALLENGE_FIELD]: solution } : payload;
      const answer: unknown = await (await apiRequest('POST', '/api/gdpr/requests', body)).json();
      return (await loadValidation()).parseAccepted(answer);
    },
    onError: (error, payload) => {
      const answer = error instanceof ApiError ? error.payload : null;
      if (asksForChallenge(answer) && !resent.current) {
        resent.current = true;
        challenge.require(() => submission.send(payload));
        return;
      }
      if (asksForChallenge(answer)) challenge.require(null);
      for (const [field, message] of Object.entries(answer?.errors ?? {})) {
        if ((FIELDS as string[]).includes(field)) setError(field as keyof Values, { message });
      }
    },
  });
  useEffect(() => {
    if (submission.isSuccess) doneRef.current?.focus();
  }, [submission.isSuccess]);

  const onValid = (values: Parsed, event?: React.BaseSyntheticEvent) => {
    const form = event?.target as HTMLFormElement | undefined;
    const honeypot = (form?.elements.namedItem(HONEYPOT_FIELD) as HTMLInputElement | null)?.value ?? '';
    resent.current = false;
    submission.send({
      email: values.email,
      requestType: values.requestType,
      ...(values.requestType === 'rectification' && values.details ? { details: values.details } : {}),
      [HONEYPOT_FIELD]: honeypot,
    });
  };

  if (submission.isSuccess) {
    return (
      <div role="status" className="mt-4 rounded-lg bg-emerald-50 p-5 text-emerald-950 ring-1 ring-emerald-200">
        <h3 ref={doneRef} tabIndex={-1} className="text-lg font-bold focus:outline-none">
          {texts.successTitle}
        </h3>
        <p className="mt-2">{submission.data.message}</p>
        <p className="mt-2">{texts.successNext}</p>
        <button
          type="button"
          className="btn-secondary mt-4"
          onClick={() => {
            reset();
            submission.reset();
          }}
        >
          {texts.another}
        </button>
      </div>
    );
  }

  const failure =
    submission.error && !challenge.waiting
      ? ((submission.error instanceof ApiError ? submission.error.payload?.message : undefined) ??
        formMessages.errorFallbackNewerPages)
      : null;
  const emailId = `${id}-email`;
  const typeId = `${id}-type`;
  const detailsId = `${id}-details`;

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
      <div>
        <label htmlFor={emailId} className="mb-1 block text-sm font-medium text-slate-800">
          {texts.emailLabel}
        </label>
        <p id={`${emailId}-hint`} className="mb-1 text-sm text-slate-700">
          {texts.emailHint}
        </p>
        <input
          id={emailId}
          type="email"
          autoComplete="email"
          inputMode="email"
          aria-invalid={errors.email ? true : undefined}
          aria-describedby={describedBy(`${emailId}-hint`, errors.email && `${emailId}-error`)}
          className={INPUT_CLASS}
          {...register('email')}
        />
        {errors.email?.message ? (
          <p id={`${emailId}-error`} className="mt-1 text-sm font-medium text-red-700">
            {errors.email.message}
          </p>
        ) : null}
      </div>
      <div>
        <label htmlFor={typeId} className="mb-1 block text-sm font-medium text-slate-800">
          {texts.typeLabel}
        </label>
        <select
          id={typeId}
          aria-invalid={errors.requestType ? true : undefined}
          aria-describedby={describedBy(errors.requestType && `${typeId}-error`)}
          className={INPUT_CLASS}
          {...register('requestType')}
        >
          <option value="">{texts.typePlaceholder}</option>
          {GDPR_REQUEST_TYPES.map((type) => (
            <option key={type} value={type}>
              {GDPR_REQUEST_TYPE_LABELS[type]}
            </option>
          ))}
        </select>
        {errors.requestType?.message ? (
          <p id={`${typeId}-error`} className="mt-1 text-sm font-medium text-red-700">
            {errors.requestType.message}
          </p>
        ) : null}
      </div>
      <div className="hidden [form:has(option[value=rectification]:checked)_&]:block">
        <label htmlFor={detailsId} className="mb-1 block text-sm font-medium text-slate-800">
          {texts.detailsLabel}
        </label>
        <p id={`${detailsId}-hint`} className="mb-1 text-sm text-slate-700">
          {texts.detailsHint}
        </p>
        <textarea
          id={detailsId}
          rows={4}
          maxLength={GDPR_TEXT_MAX_LENGTH}
          aria-invalid={errors.details ? true : undefined}
          aria-describedby={describedBy(`${detailsId}-hint`, errors.details && `${detailsId}-error`)}
          className={INPUT_CLASS}
          {...register('details')}
        />
        {errors.details?.message ? (
          <p id={`${detailsId}-error`} className="mt-1 text-sm font-medium text-red-700">
            {errors.details.message}
          </p>
        ) : null}
      </div>
      <ChallengeSlot challenge={challenge} />
      {failure ? (
        <p role="alert" className="rounded-md bg-red-50 p-3 text-sm font-medium text-red-800">
          {failure}
        </p>
      ) : null}
      <button
        type="submit"
        disabled={submission.isPending || challenge.waiting}
        className="btn-primary self-start px-6 py-3 text-base"
      >
        {challenge.waiting
          ? challengeMessages.verifying
          : submission.isPending
            ? formMessages.submitting
            : texts.submit}
      </button>
    </form>
  );
}
