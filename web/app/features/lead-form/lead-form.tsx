import { memo, useEffect, useRef, useState } from 'react';
import { useForm, type Resolver } from 'react-hook-form';
import { useNavigate } from 'react-router';
import { HONEYPOT_FIELD, isSwissPath, thankYouPathFor, type EbookType } from '@guida/shared/lead-rules';
import { challengeMessages, formMessages, marketingConsentText, offerEndedTexts, privacyConsentText } from '@guida/shared/messages';
import type { EbookRequestInput, leadFormSchema, LeadFormValues } from '@guida/shared/schemas/lead';
import type { z } from 'zod';
import { HydrationBoundary } from '../../components/hydration-boundary';
import { Checkbox, Field, FormAlert, SubmitButton } from '../../components/ui/form';
import { InfoToggletip } from '../../components/ui/info-toggletip';
import { toast } from '../../components/ui/toast-store';
import { ApiError } from '../../lib/api-client';
import { useLoadOnFirstFocus } from '../../lib/load-on-first-focus';
import { ChallengeSlot, useChallengedSubmission } from '../challenge';
import { trackGaEvent, useCookieChoice } from '../consent';
import { useSiteSettings } from '../site-settings';
import { useFormTracking, visitAttribution, visitSessionToken } from '../tracking';

/** What the fields hold: the consents are plain checkboxes (false until ticked). */
type Values = Omit<LeadFormValues, 'gdprConsent' | 'marketingConsent'> & { gdprConsent: boolean; marketingConsent: boolean };
type Parsed = z.output<typeof leadFormSchema>;

const loadSchema = () => import('./lead-form-schema');
/** The shared schema's resolver, loaded when first needed (lead-form-schema.ts). */
const resolver: Resolver<Values, unknown, Parsed> = async (values, context, options) =>
  (await loadSchema()).leadFormResolver(values as never, context, options as never);

export interface LeadFormProps {
  /** Newer pages send guide type and source; every page sends the visit's campaign. */
  variant: 'newer' | 'older';
  ebookType?: EbookType;
  landingPath: string;
  title: string;
  subtitle: string;
  submitLabel: string;
}

/**
 * The visit's attribution as the API takes it: the last touch's fields, and the first touch;
 * the ad click ids only with the marketing cookie consent (decision 049).
 */
function campaign(clickIds: boolean) {
  const { first, last } = visitAttribution(clickIds);
  return { ...last, firstTouch: first };
}

/**
 * Why the offer has ended (the text to show), or null while it runs (decision 047): as the
 * site settings say, read after load (the page is prerendered with the form), and at the
 * deadline they give, also while the page stays open.
 */
function useOfferEnd(): string | null {
  const { data } = useSiteSettings();
  const endsAt = Date.parse(data?.offerEndsAt ?? '');
  const [deadlinePassed, setDeadlinePassed] = useState(false);
  useEffect(() => {
    const wait = endsAt - Date.now();
    // No deadline (NaN), or one beyond what a timer can wait: the page is long reloaded by then.
    if (!(wait < 2 ** 31)) return;
    const timer = setTimeout(() => setDeadlinePassed(true), wait);
    return () => clearTimeout(timer);
  }, [endsAt]);
  if (data?.offerEndReason === 'places') return offerEndedTexts.places;
  return data?.offerEnded || deadlinePassed ? offerEndedTexts.deadline : null;
}

/**
 * The guide request form, or in its place, once the offer has ended, a heading and why
 * (no form at all: nothing to fill in that could not be sent).
 */
export function LeadForm(props: LeadFormProps) {
  const ended = useOfferEnd();
  // A request the intake refused with 410: the offer ended after the settings were read.
  const [refused, setRefused] = useState<string | null>(null);
  const text = refused ?? ended;
  if (text === null) {
    // Hydrated on its own: the form's hooks, and react-hook-form's re-render once it has
    // registered the fields, were the longest part of the page's hydration commit.
    return (
      <HydrationBoundary>
        <GuideForm {...props} onOfferEnded={setRefused} />
      </HydrationBoundary>
    );
  }
  return (
    <section id="richiedi-guida" aria-labelledby="richiedi-guida-titolo" className="rounded-2xl bg-white p-6 text-slate-900 shadow-xl ring-1 ring-slate-200">
      <h2 id="richiedi-guida-titolo" tabIndex={-1} ref={refused ? (heading) => heading?.focus() : undefined} className="text-xl font-bold">
        {offerEndedTexts.title}
      </h2>
      <p className="mt-1 text-sm text-slate-700">{text}</p>
    </section>
  );
}

/**
 * The form. Without JavaScript it is a plain POST to the API (which answers 303 to the
 * thank-you page); with JavaScript react-hook-form validates it with the shared schema
 * (nothing before the first submit, then each field as it changes, the first invalid field
 * focused) and a mutation sends it as JSON. Memoised: what the page reads after load (the
 * site settings, the live figures) renders the page around it again, never with new props.
 */
const GuideForm = memo(function GuideForm({
  variant,
  ebookType,
  landingPath,
  title,
  subtitle,
  submitLabel,
  onOfferEnded,
}: LeadFormProps & { onOfferEnded: (text: string) => void }) {
  const navigate = useNavigate();
  const formRef = useRef<HTMLFormElement>(null);
  const tracking = useFormTracking(formRef, landingPath);
  // The API checks the choice recorded under this id, and keeps click ids only if it accepts marketing.
  const { flags, sessionId } = useCookieChoice();
  useLoadOnFirstFocus(formRef, loadSchema);
  // No default values: registering a field then reads what the prerendered input already
  // holds (typed or autofilled before the page was interactive) instead of clearing it.
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors },
  } = useForm<Values, unknown, Parsed>({ resolver });
  const fallbackError = variant === 'older' ? formMessages.errorFallbackOlderPage : formMessages.errorFallbackNewerPages;

  const { challenge, submit, busy, failure } = useChallengedSubmission<EbookRequestInput & Record<string, unknown>, { redirectTo: string }>(formRef, {
    url: '/api/ebook-request',
    parse: async (answer) => (await loadSchema()).parseCreated(answer),
    onSuccess: (created, payload) => {
      tracking.succeeded();
      trackGaEvent('generate_lead', { category: 'lead', label: ebookType ?? 'general' });
      toast({ title: 'Richiesta inviata', description: 'Ti stiamo inviando il link via SMS.' });
      void navigate(created.redirectTo || thankYouPathFor(payload.telefono, landingPath));
    },
    onError: (answer, error) => {
      tracking.failed(answer?.message ?? formMessages.errorAnalyticsFallback);
      if (error instanceof ApiError && error.status === 410) {
        onOfferEnded(answer?.message ?? offerEndedTexts.deadline);
        return;
      }
      for (const [field, message] of Object.entries(answer?.errors ?? {})) {
        if (field in FIELD_NAMES) setError(field as keyof Values, { message });
      }
      toast({ title: formMessages.errorTitle, description: answer?.message ?? fallbackError, variant: 'destructive' });
    },
  });

  const onValid = (values: Parsed, event?: React.BaseSyntheticEvent) => {
    const form = event?.target as HTMLFormElement | undefined;
    const honeypot = (form?.elements.namedItem(HONEYPOT_FIELD) as HTMLInputElement | null)?.value ?? '';
    // The visit's signed session: the API counts the lead in its hero variant (decision 051).
    const visitSession = visitSessionToken();
    const personal = {
      nome: values.nome,
      cognome: values.cognome,
      email: values.email,
      telefono: values.telefono.e164,
      gdprConsent: true as const,
      marketingConsent: values.marketingConsent === true,
      landingPath,
      ...(visitSession ? { visitSession } : {}),
      [HONEYPOT_FIELD]: honeypot,
      ...campaign(sessionId !== null && flags.marketing),
      ...(sessionId ? { cookieConsentSessionId: sessionId } : {}),
    };
    tracking.submitted();
    submit(variant === 'older' ? personal : { ...personal, ebookType, source: 'landing-page' });
  };

  return (
    <form
      ref={formRef}
      id="richiedi-guida"
      method="post"
      action="/api/ebook-request"
      noValidate={variant === 'newer'}
      aria-labelledby="richiedi-guida-titolo"
      onSubmit={(event) => {
        tracking.attempted();
        void handleSubmit(onValid, (invalid) => {
          if (variant === 'newer' && invalid.gdprConsent) {
            toast({ title: formMessages.consentRequiredTitle, description: formMessages.consentRequiredText, variant: 'destructive' });
          }
        })(event);
      }}
      className="flex flex-col gap-4 rounded-2xl bg-white p-6 text-slate-900 shadow-xl ring-1 ring-slate-200"
    >
      <div>
        <h2 id="richiedi-guida-titolo" className="text-xl font-bold">
          {title}
        </h2>
        <p className="mt-1 text-sm text-slate-700">{subtitle}</p>
      </div>
      <input type="hidden" name="landingPath" value={landingPath} />
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
        <Field label="Nome" autoComplete="given-name" error={errors.nome?.message} {...register('nome')} />
        <Field label="Cognome" autoComplete="family-name" error={errors.cognome?.message} {...register('cognome')} />
      </div>
      <Field label="Email" type="email" autoComplete="email" inputMode="email" error={errors.email?.message} {...register('email')} />
      <Field
        label="Cellulare"
        type="tel"
        placeholder={isSwissPath(landingPath) ? '+41 79 123 45 67' : '+39 347 123 4567'}
        autoComplete="tel"
        inputMode="tel"
        error={errors.telefono?.message}
        aside={
          <InfoToggletip label="Perché il cellulare?">
            Ti inviamo il link personale per scaricare la guida via SMS. Accettiamo cellulari italiani (+39) e
            svizzeri (+41).
          </InfoToggletip>
        }
        {...register('telefono')}
      />
      <Checkbox
        label={
          <>
            {privacyConsentText}{' '}
            <a href="/privacy" className="font-medium text-emerald-800 underline">
              Informativa sulla privacy
            </a>
          </>
        }
        required={variant === 'older'}
        error={errors.gdprConsent?.message}
        {...register('gdprConsent')}
      />
      {/* Optional, unticked, separate from the privacy consent: never needed to get the guide. */}
      <Checkbox label={marketingConsentText} {...register('marketingConsent')} />
      <ChallengeSlot challenge={challenge} />
      {failure !== undefined ? <FormAlert>{failure ?? fallbackError}</FormAlert> : null}
      <SubmitButton
        pending={busy}
        pendingLabel={challenge.waiting ? challengeMessages.verifying : formMessages.submitting}
        className="w-full py-3 text-base"
      >
        {submitLabel}
      </SubmitButton>
      <p className="text-xs text-slate-600">Gratis, senza impegno. Il link arriva via SMS entro 2 minuti.</p>
    </form>
  );
});

/** The fields a server message can be shown under. */
const FIELD_NAMES: Record<keyof Values, true> = { nome: true, cognome: true, email: true, telefono: true, gdprConsent: true, marketingConsent: true };
