import { useId, useRef } from 'react';
import { useNavigate } from 'react-router';
import { HONEYPOT_FIELD, isSwissPath, thankYouPathFor, type EbookType } from '@guida/shared/lead-rules';
import { challengeMessages, formMessages, privacyConsentText } from '@guida/shared/messages';
import type { EbookRequestInput, LeadFormValues } from '@guida/shared/schemas/lead';
import { InfoToggletip } from '../../components/ui/info-toggletip';
import { toast } from '../../components/ui/toast-store';
import { ApiError, apiRequest } from '../../lib/api-client';
import { useLoadOnFirstFocus } from '../../lib/load-on-first-focus';
import { useSubmission } from '../../lib/use-submission';
import { useValidatedForm, type FieldRegistration } from '../../lib/validated-form';
import { ChallengeSlot } from '../challenge/challenge-slot';
import { asksForChallenge, CHALLENGE_FIELD, useChallenge } from '../challenge/use-challenge';
import { trackGaEvent } from '../consent/google-analytics';
import { visitAttribution } from '../tracking/attribution';
import { useFormTracking } from '../tracking/use-form-tracking';
import { MarketingConsentField, marketingConsentOf } from './marketing-consent-field';

type Values = { nome: string; cognome: string; email: string; telefono: string; gdprConsent: boolean };
type Parsed = Omit<LeadFormValues, 'telefono'> & { telefono: { e164: string; country: 'IT' | 'CH' } };

const loadValidation = () => import('./lead-form-validation');

/** The shared schema, loaded when first needed (see lead-form-validation.ts). */
const validate = async (values: Values) => (await loadValidation()).validateLeadForm(values);

export interface LeadFormProps {
  /** Newer pages send guide type and source; every page sends the visit's campaign. */
  variant: 'newer' | 'older';
  ebookType?: EbookType;
  landingPath: string;
  /** The hero variant the visitor was shown, sent with the lead (decision 041). */
  heroVariant?: string;
  title: string;
  subtitle: string;
  submitLabel: string;
}

const FIELD_IDS: (keyof Values)[] = ['nome', 'cognome', 'email', 'telefono', 'gdprConsent'];

/** The visit's attribution as the API takes it: the last touch's fields, and the first touch. */
function campaign() {
  const { first, last } = visitAttribution();
  return { ...last, firstTouch: first };
}

/**
 * The guide request form. Without JavaScript it is a plain POST to the API (which answers
 * 303 to the thank-you page); with JavaScript it validates with the shared schema and
 * sends JSON.
 */
export function LeadForm({ variant, ebookType, landingPath, heroVariant, title, subtitle, submitLabel }: LeadFormProps) {
  const navigate = useNavigate();
  const formId = useId();
  const formRef = useRef<HTMLFormElement>(null);
  const tracking = useFormTracking(formRef, landingPath, heroVariant);
  useLoadOnFirstFocus(formRef, loadValidation);
  const challenge = useChallenge(formRef);
  /** A submission refused for want of a challenge is sent again once, when it is solved. */
  const resent = useRef(false);
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors },
  } = useValidatedForm<Values, Parsed>(validate);
  const fallbackError = variant === 'older' ? formMessages.errorFallbackOlderPage : formMessages.errorFallbackNewerPages;

  const submission = useSubmission({
    send: async (payload: EbookRequestInput & Record<string, unknown>) => {
      const solution = challenge.take();
      const body = solution ? { ...payload, [CHALLENGE_FIELD]: solution } : payload;
      const answer: unknown = await (await apiRequest('POST', '/api/ebook-request', body)).json();
      return (await loadValidation()).parseCreated(answer);
    },
    onSuccess: (created, payload) => {
      tracking.succeeded();
      trackGaEvent('generate_lead', { category: 'lead', label: ebookType ?? 'general' });
      toast({ title: 'Richiesta inviata', description: 'Ti stiamo inviando il link via SMS.' });
      void navigate(created.redirectTo || thankYouPathFor(payload.telefono, landingPath));
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
        if ((FIELD_IDS as string[]).includes(field)) setError(field as keyof Values, { message });
      }
      const message = answer?.message ?? fallbackError;
      toast({ title: formMessages.errorTitle, description: message, variant: 'destructive' });
      tracking.failed(answer?.message ?? formMessages.errorAnalyticsFallback);
    },
  });

  const onValid = (values: Parsed, event?: React.BaseSyntheticEvent) => {
    const form = event?.target as HTMLFormElement | undefined;
    const honeypot = (form?.elements.namedItem(HONEYPOT_FIELD) as HTMLInputElement | null)?.value ?? '';
    const personal = {
      nome: values.nome,
      cognome: values.cognome,
      email: values.email,
      telefono: values.telefono.e164,
      gdprConsent: true as const,
      marketingConsent: marketingConsentOf(form),
      landingPath,
      ...(heroVariant ? { heroVariant } : {}),
      [HONEYPOT_FIELD]: honeypot,
      ...campaign(),
    };
    tracking.submitted();
    resent.current = false;
    submission.send(
      variant === 'older' ? personal : { ...personal, ebookType, source: 'landing-page' },
    );
  };

  const failure =
    submission.error && !challenge.waiting
      ? ((submission.error instanceof ApiError ? submission.error.payload?.message : undefined) ?? fallbackError)
      : null;

  return (
    <form
      ref={formRef}
      id="richiedi-guida"
      method="post"
      action="/api/ebook-request"
      noValidate={variant === 'newer'}
      aria-labelledby={`${formId}-title`}
      onSubmit={(event) => {
        tracking.attempted();
        void handleSubmit(onValid, (invalid) => {
          if (variant === 'newer' && invalid.gdprConsent) {
            toast({
              title: formMessages.consentRequiredTitle,
              description: formMessages.consentRequiredText,
              variant: 'destructive',
            });
          }
        })(event);
      }}
      className="flex flex-col gap-4 rounded-2xl bg-white p-6 text-slate-900 shadow-xl ring-1 ring-slate-200"
    >
      <div>
        <h2 id={`${formId}-title`} className="text-xl font-bold">
          {title}
        </h2>
        <p className="mt-1 text-sm text-slate-700">{subtitle}</p>
      </div>
      <input type="hidden" name="landingPath" value={landingPath} />
      {heroVariant ? <input type="hidden" name="heroVariant" value={heroVariant} /> : null}
      {variant === 'newer' && ebookType ? (
        <>
          <input type="hidden" name="ebookType" value={ebookType} />
          <input type="hidden" name="source" value="landing-page" />
        </>
      ) : null}
      <div className="hidden">
        <label>
          Lascia vuoto questo campo
          <input type="text" name={HONEYPOT_FIELD} tabIndex={-1} autoComplete="off" defaultValue="" />
        </label>
      </div>
      <div className="grid gap-4 sm:grid-cols-2">
        <Field id={`${formId}-nome`} label="Nome" error={errors.nome?.message} registration={register('nome')} autoComplete="given-name" />
        <Field
          id={`${formId}-cognome`}
          label="Cognome"
          error={errors.cognome?.message}
          registration={register('cognome')}
          autoComplete="family-name"
        />
      </div>
      <Field
        id={`${formId}-email`}
        label="Email"
        type="email"
        error={errors.email?.message}
        registration={register('email')}
        autoComplete="email"
        inputMode="email"
      />
      <Field
        id={`${formId}-telefono`}
        label="Cellulare"
        type="tel"
        placeholder={isSwissPath(landingPath) ? '+41 79 123 45 67' : '+39 347 123 4567'}
        error={errors.telefono?.message}
        registration={register('telefono')}
        autoComplete="tel"
        inputMode="tel"
        hint={
          <InfoToggletip label="Perché il cellulare?">
            Ti inviamo il link personale per scaricare la guida via SMS. Accettiamo cellulari italiani (+39) e
            svizzeri (+41).
          </InfoToggletip>
        }
      />
      <div>
        <div className="flex items-start gap-3">
          <input
            id={`${formId}-consent`}
            type="checkbox"
            required={variant === 'older'}
            aria-invalid={errors.gdprConsent ? true : undefined}
            aria-describedby={errors.gdprConsent ? `${formId}-consent-error` : undefined}
            className="mt-1 h-5 w-5 shrink-0 accent-emerald-700"
            {...register('gdprConsent')}
          />
          <label htmlFor={`${formId}-consent`} className="text-sm text-slate-700">
            {privacyConsentText}{' '}
            <a href="/privacy" className="font-medium text-emerald-800 underline">
              Informativa sulla privacy
            </a>
          </label>
        </div>
        {errors.gdprConsent?.message ? (
          <p id={`${formId}-consent-error`} className="mt-1 text-sm font-medium text-red-700">
            {errors.gdprConsent.message}
          </p>
        ) : null}
      </div>
      <MarketingConsentField id={`${formId}-marketing`} />
      <ChallengeSlot challenge={challenge} />
      {failure ? (
        <p role="alert" className="rounded-md bg-red-50 p-3 text-sm font-medium text-red-800">
          {failure}
        </p>
      ) : null}
      <button
        type="submit"
        disabled={submission.isPending || challenge.waiting}
        className="btn-primary w-full py-3 text-base"
      >
        {challenge.waiting
          ? challengeMessages.verifying
          : submission.isPending
            ? formMessages.submitting
            : submitLabel}
      </button>
      <p className="text-xs text-slate-600">Gratis, senza impegno. Il link arriva via SMS entro 2 minuti.</p>
    </form>
  );
}

interface FieldProps {
  id: string;
  label: string;
  type?: 'text' | 'email' | 'tel';
  placeholder?: string;
  autoComplete: string;
  inputMode?: 'email' | 'tel';
  error: string | undefined;
  registration: FieldRegistration;
  hint?: React.ReactNode;
}

function Field({ id, label, type = 'text', placeholder, autoComplete, inputMode, error, registration, hint }: FieldProps) {
  return (
    <div>
      <div className="mb-1 flex flex-wrap items-center gap-2">
        <label htmlFor={id} className="text-sm font-medium text-slate-800">
          {label}
        </label>
        {hint}
      </div>
      <input
        id={id}
        type={type}
        placeholder={placeholder}
        autoComplete={autoComplete}
        inputMode={inputMode}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-error` : undefined}
        className="w-full rounded-md border border-slate-400 px-3 py-2 text-base text-slate-900 placeholder:text-slate-500 focus:border-emerald-700 focus:outline-none focus:ring-2 focus:ring-emerald-700/40 aria-[invalid=true]:border-red-700"
        {...registration}
      />
      {error ? (
        <p id={`${id}-error`} className="mt-1 text-sm font-medium text-red-700">
          {error}
        </p>
      ) : null}
    </div>
  );
}
