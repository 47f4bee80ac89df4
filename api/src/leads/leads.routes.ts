import { Router, type Request, type RequestHandler } from 'express';
import { apiMessages, guideLinkPages, offerEndedTexts } from '@guida/shared/messages';
import { TOUCH_FIELDS, touchOfLanding } from '@guida/shared/attribution-rules';
import { HONEYPOT_FIELD } from '@guida/shared/lead-rules';
import { isSitePage } from '@guida/shared/page-paths';
import { ebookRequestSchema } from '@guida/shared/schemas/lead';
import { requireChallengeWhenBusy } from '../challenge';
import type { ApiDeps } from '../dependencies';
import { AppError } from '../errors';
import { visitSessionsOf } from '../experiments';
import { clampUserAgent, truncateIp } from '../http/client-ip';
import { isFormPost, publicIntake } from '../http/public-intake';
import { createRateLimit } from '../http/rate-limit';
import { sameOriginReferer } from '../http/same-origin-referer';
import { parseOrThrow } from '../http/validate';
import { countLeadOutcome } from '../metrics';
import { offerOf, type OfferEndReason } from '../offer';
import { createLeadInserter, NoPlaceLeftError } from './lead-inserter';
import { createLead } from './leads.service';
import { smsBudgetSignals } from './sms-budget-signals';

/** A form with its page and campaign fields is well under 4 KB. */
const LEAD_BODY_LIMIT = '16kb';
const FORM_BOOLEAN_FIELDS = ['gdprConsent', 'marketingConsent'] as const;
const CHECKED = new Set(['on', 'true', '1', 'yes']);

/**
 * A plain HTML form sends checkboxes as "on" (or not at all) and everything as text. It
 * names no cookie choice: the banner needs JavaScript, so its visitor made none, and the
 * lead keeps no click id (decision 049).
 */
function fromFormFields(fields: Record<string, unknown>) {
  const { cookieConsentSessionId: _none, ...normalised } = fields;
  for (const name of FORM_BOOLEAN_FIELDS) {
    normalised[name] = typeof fields[name] === 'string' && CHECKED.has(fields[name]);
  }
  return normalised;
}

/**
 * The page of a request, and for a plain form post its campaign: the JSON client sends
 * what its page sends (the older page no campaign), while a form posted without
 * JavaScript has its campaign only in the page's query string, which the same-origin
 * Referer tells us.
 */
function withPageAndCampaign(body: Record<string, unknown>, req: Request, formPost: boolean) {
  const referer = sameOriginReferer(req);
  const landingPath = typeof body.landingPath === 'string' ? body.landingPath : referer?.pathname;
  if (!formPost) return { ...body, landingPath };
  // The page's address comes from the visitor's browser, not from what they typed: values
  // that break a rule are left out (as the page's script would) instead of refusing the lead.
  // Its click ids go no further than the insert, which keeps none without a cookie choice.
  const fromPage = referer ? touchOfLanding(referer.search, null, referer.host) : null;
  const campaign = Object.fromEntries(TOUCH_FIELDS.map((field) => [field, body[field] ?? fromPage?.[field] ?? undefined]));
  return { ...body, landingPath, ...campaign };
}

/** The form's anchor on every page that has it. */
const FORM_ANCHOR = '#richiedi-guida';

/**
 * Where a plain form post came from, to offer the form again (decision 053): the page of
 * the same-origin Referer with its query (the campaign the next post carries again), else
 * the form's `landingPath`, when either is a page of this site; else the home page.
 */
function leadFormHref(req: Request): string {
  const referer = sameOriginReferer(req);
  if (referer && isSitePage(referer.pathname)) return `${referer.pathname}${referer.search}${FORM_ANCHOR}`;
  const { landingPath } = req.body as Record<string, unknown>;
  return `${typeof landingPath === 'string' && isSitePage(landingPath) ? landingPath : '/'}${FORM_ANCHOR}`;
}

/** 410: the offer has ended, nothing is stored (decision 047); a page for the no-JavaScript form. */
const offerEnded = (reason: OfferEndReason) =>
  new AppError(410, 'offer_ended', reason === 'deadline' ? apiMessages.offerEndedDeadline : apiMessages.offerEndedPlaces, {
    page: { title: offerEndedTexts.title, link: { href: '/', label: guideLinkPages.backHome } },
  });

export function leadsRouter(deps: ApiDeps) {
  const { config } = deps;
  const intake = publicIntake(deps, {
    name: 'lead-ip',
    accepts: ['json', 'form'],
    bodyLimit: LEAD_BODY_LIMIT,
    rateLimit: { points: config.LEAD_RATE_LIMIT_PER_IP, durationSeconds: 3600 },
  });
  const perPhone = createRateLimit({
    redis: deps.redis,
    keyPrefix: `${config.REDIS_KEY_PREFIX}:rl:lead-phone`,
    points: config.LEAD_RATE_LIMIT_PER_PHONE,
    durationSeconds: 3600,
  });

  const offer = offerOf(deps);
  const visitSessions = visitSessionsOf(deps);
  const signals = smsBudgetSignals(deps);
  const insertLead = createLeadInserter(deps.db, {
    places: { startsAt: offer.settings.startsAt, placesTotal: offer.settings.placesTotal },
    intake: { metaConversions: config.metaConversionsOn },
  });
  // After the intake (a cross-site post still gets 403, a flood 429, before anything else)
  // and before the challenge and the body's rules: an ended offer is ended whatever the body.
  // What needs the database (the last places) is decided when the lead is inserted.
  const offerOpen: RequestHandler = (_req, _res, next) => {
    const ended = offer.knownEndReason();
    if (ended) throw offerEnded(ended);
    next();
  };

  const router = Router();
  router.post('/api/ebook-request', countLeadOutcome(deps.metrics), ...intake, offerOpen, requireChallengeWhenBusy(deps, { href: leadFormHref }), async (req, res) => {
    const formPost = isFormPost(req);
    const body = formPost ? fromFormFields(req.body as Record<string, unknown>) : (req.body as Record<string, unknown>);
    const honeypot = body[HONEYPOT_FIELD];
    if (typeof honeypot === 'string' ? honeypot.trim() !== '' : honeypot != null) {
      req.log.warn('honeypot field filled in: request refused');
      throw new AppError(400, 'honeypot', apiMessages.honeypot);
    }

    const parsed = parseOrThrow(ebookRequestSchema, withPageAndCampaign(body, req, formPost));
    // The variant the server assigned this visit, whatever the request names (decision 051).
    const visitor = { ip: req.ip, userAgent: req.get('user-agent') };
    const request = { ...parsed, heroVariant: await visitSessions.leadVariant(parsed.landingPath, parsed.visitSession, visitor) };
    await perPhone.consume(request.telefono);

    const lead = await createLead(
      {
        insertLead,
        queues: deps.queues,
        logger: req.log,
        downloadTokenTtlDays: config.GUIDE_LINK_TTL_DAYS,
        placeKey: offer.placeKey,
        smsBudgetSignals: signals,
      },
      request,
      { ip: req.ip, ipAddress: truncateIp(req.ip), userAgent: clampUserAgent(req.get('user-agent')) },
    ).catch((error: unknown) => {
      if (!(error instanceof NoPlaceLeftError)) throw error;
      offer.allPlacesTaken();
      throw offerEnded('places');
    });
    if (formPost) {
      res.redirect(303, lead.redirectTo);
      return;
    }
    res.status(201).json({ id: lead.id, redirectTo: lead.redirectTo });
  });
  return router;
}
