import { experimentOfPath, HERO_EXPERIMENTS } from '@guida/shared/experiments';
import type { AnalyticsEvent } from '@guida/shared/schemas/analytics';
import type { VisitSessionAnswer } from '@guida/shared/schemas/visit-session';
import type { ApiDeps } from '../dependencies';
import type { ServedVariants } from './served-variants';
import { endOfUtcDay, newSessionId, sessionVariantOn, signVisitSession, verifyVisitSession, type VisitSession } from './visit-session';

type Visitor = { ip: string | undefined; userAgent: string | undefined };

/**
 * An event's session and hero variant as the API stores them (decision 051). With a valid
 * signed session: its session id, and on a page under experiment the variant it was
 * assigned, whatever the event names. Without one: the event as sent, whose variant the
 * schema has already dropped, so it counts in no experiment.
 */
export function attributedEvents(events: AnalyticsEvent[], session: VisitSession | null): AnalyticsEvent[] {
  if (!session) return events;
  return events.map((event) => {
    const signed = { ...event, sessionId: session.sessionId };
    if (signed.type === 'page-view') return { ...signed, heroVariant: sessionVariantOn(session, signed.path) };
    if (signed.type === 'conversion' && signed.metadata) {
      return { ...signed, metadata: { ...signed.metadata, hero_variant: sessionVariantOn(session, signed.metadata.path) } };
    }
    return signed;
  });
}

/**
 * The visit sessions of an API (decision 051): issued with the variants this visitor is
 * served, verified on the way back.
 */
export function createVisitSessions(deps: Pick<ApiDeps, 'config' | 'now'>, served: ServedVariants) {
  const secret = deps.config.SESSION_SECRET;
  const now = () => deps.now?.() ?? new Date();
  const verify = (token: string | null) => verifyVisitSession(secret, token, now());

  return {
    /** A new session for `visitor`, with the variant of each experiment its pages show. */
    async issue(visitor: Visitor): Promise<VisitSessionAnswer> {
      const issuedAt = now();
      const variants: Record<string, string> = {};
      for (const experiment of HERO_EXPERIMENTS) variants[experiment.id] = await served.variantFor(experiment, visitor);
      const session = { sessionId: newSessionId(), variants, expiresAt: endOfUtcDay(issuedAt) };
      return {
        sessionId: session.sessionId,
        token: signVisitSession(secret, session),
        expiresIn: Math.ceil((session.expiresAt.getTime() - issuedAt.getTime()) / 1000),
      };
    },

    /** The signed session of a token, or null when it is missing, forged or expired. */
    verify,

    /**
     * A lead's variant: its visit's signed one, else the one this request is served (the
     * page a form without JavaScript was posted from showed it); null off an experiment.
     */
    async leadVariant(landingPath: string | null, token: string | null, visitor: Visitor): Promise<string | null> {
      const experiment = experimentOfPath(landingPath);
      if (!experiment) return null;
      return sessionVariantOn(verify(token), landingPath) ?? served.variantFor(experiment, visitor);
    },
  };
}

export type VisitSessions = ReturnType<typeof createVisitSessions>;
