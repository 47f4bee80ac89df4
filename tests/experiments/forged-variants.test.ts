/**
 * An A/B experiment's counts cannot be forged from outside (decision 051): events and leads
 * that name another variant, make up session ids, or carry a forged, altered or foreign
 * visit session leave the admin's report (visitors, leads, the verdict behind «Tieni»)
 * exactly as it was, or count as the server assigned. From the HTTP request through the
 * analytics stream and the worker's consumer into PostgreSQL, read back by the admin API.
 */
import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HERO_EXPERIMENTS } from '@guida/shared/experiments';
import { analyticsStreamKey } from '@guida/shared/jobs/analytics-stream';
import { createLogger } from '@guida/shared/server/logger';
import { testRedisUrl } from '@guida/testing/services';
import { waitFor } from '@guida/testing/wait-for';
import { endOfUtcDay, signVisitSession } from '../../api/src/experiments/visit-session';
import { signInAsAdmin } from '../../api/src/testing/admin-session';
import { createExperimentSite, servedVariantOf } from '../../api/src/testing/site-fixture';
import { createTestApi, uniqueItalianMobile, validLead, type TestApi } from '../../api/src/testing/test-api';
import { startAnalyticsConsumer } from '../../worker/src/analytics/analytics-consumer';

const experiment = HERO_EXPERIMENTS[0]!;
const site = createExperimentSite();
let api: TestApi;
let consumer: ReturnType<typeof startAnalyticsConsumer>;
let admin: Awaited<ReturnType<typeof signInAsAdmin>>;

beforeAll(async () => {
  api = await createTestApi({ WEB_BUILD_DIR: site.dir });
  consumer = startAnalyticsConsumer({
    redis: new Redis(testRedisUrl()),
    db: api.db,
    logger: createLogger({ service: 'forged-variants-test', level: 'silent' }),
    prefix: api.prefix,
    blockMs: 100,
  });
  admin = await signInAsAdmin(api);
});
afterAll(async () => {
  await consumer.stop();
  await api.close();
  site.remove();
});

/** A browser: an address (the API trusts loopback proxies in tests) and a user agent. */
interface Visitor {
  ip: string;
  userAgent: string;
}
const visitorNo = (n: number): Visitor => ({ ip: `203.0.113.${n}`, userAgent: `Mozilla/5.0 (visitatore ${n})` });
const as = (test: request.Test, visitor: Visitor) => test.set('X-Forwarded-For', visitor.ip).set('User-Agent', visitor.userAgent);

async function servedVariant(visitor: Visitor) {
  return servedVariantOf((await as(request(api.app).get(experiment.path), visitor)).text)!;
}
async function visitSession(visitor: Visitor): Promise<{ sessionId: string; token: string }> {
  const answer = await as(request(api.app).get('/api/analytics/session'), visitor);
  expect(answer.status).toBe(200);
  return answer.body;
}
async function postBatch(visitor: Visitor, body: object) {
  const answer = await as(request(api.app).post('/api/analytics/batch'), visitor).send(body);
  expect(answer.status, JSON.stringify(answer.body)).toBe(202);
}
/** A page view and a funnel landing on the experiment's page, naming `heroVariant` (or nothing). */
const visitEvents = (sessionId: string, heroVariant?: string) => [
  { type: 'page-view', eventId: randomUUID(), sessionId, path: experiment.path, ...(heroVariant ? { heroVariant } : {}) },
  {
    type: 'conversion',
    eventId: randomUUID(),
    sessionId,
    step: 'landing',
    metadata: { path: experiment.path, ...(heroVariant ? { hero_variant: heroVariant } : {}) },
  },
];
const madeUpSessionId = () => randomUUID().replaceAll('-', '').slice(0, 24);

/** Once the worker's consumer has stored everything queued. */
const stored = () => waitFor(async () => (await api.deps.redis.xlen(analyticsStreamKey(api.prefix))) === 0, { what: 'the analytics stream to be stored' });

/** What the admin's experiments tab shows of the experiment. */
async function report() {
  const answer = await admin.agent.get('/api/admin/experiments');
  expect(answer.status).toBe(200);
  return answer.body.experiments.find((entry: { id: string }) => entry.id === experiment.id).report as {
    results: { variantId: string; visitors: number; leads: number }[];
    verdict: string;
  };
}
const countsOf = (current: Awaited<ReturnType<typeof report>>) =>
  Object.fromEntries(current.results.map(({ variantId, visitors, leads }) => [variantId, { visitors, leads }]));
const landingVariants = async () =>
  (await api.db('conversion_funnel').where({ step: 'landing', landing_path: experiment.path }).select(api.db.raw("metadata->>'hero_variant' AS variant"))).map(
    (row: { variant: string | null }) => row.variant,
  );

describe('an experiment that cannot be forged from outside', () => {
  /** Honest visitors: each served variant, and the visit session the API issued them. */
  const honest: { visitor: Visitor; variant: string; session: { sessionId: string; token: string } }[] = [];
  let before: Awaited<ReturnType<typeof report>>;

  it("counts honest visits and leads by the variant the API served them", async () => {
    for (let n = 1; n <= 6; n += 1) {
      const visitor = visitorNo(n);
      const variant = await servedVariant(visitor);
      const session = await visitSession(visitor);
      honest.push({ visitor, variant, session });
      // The tracker names no variant: the session says it.
      await postBatch(visitor, { visitSession: session.token, events: visitEvents(session.sessionId) });
    }
    for (const { visitor, session } of honest.slice(0, 2)) {
      const lead = await as(request(api.app).post('/api/ebook-request'), visitor).send(validLead({ landingPath: experiment.path, visitSession: session.token }));
      expect(lead.status).toBe(201);
    }
    await stored();
    before = await report();
    const expected = Object.fromEntries(
      experiment.variants.map(({ id }) => [
        id,
        {
          visitors: honest.filter((visit) => visit.variant === id).length,
          leads: honest.slice(0, 2).filter((visit) => visit.variant === id).length,
        },
      ]),
    );
    expect(countsOf(before)).toEqual(expected);
    expect(await api.db('page_views').where({ path: experiment.path }).pluck('session_id')).toEqual(
      expect.arrayContaining(honest.map((visit) => visit.session.sessionId)),
    );
    expect((await landingVariants()).sort()).toEqual(honest.map((visit) => visit.variant).sort());
  });

  it('leaves the report unchanged for forged variants, made-up session ids and forged visit sessions', async () => {
    const forger = visitorNo(50);
    const [victim] = honest;
    const other = experiment.variants.find(({ id }) => id !== victim!.variant)!.id;
    const realExpiry = endOfUtcDay(new Date());
    const [payload, signature] = victim!.session.token.split('.') as [string, string];
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString()) as Record<string, unknown>;
    const reencoded = (fields: object) => Buffer.from(JSON.stringify({ ...claims, ...fields })).toString('base64url');
    const forgedTokens = [
      // The victim's session with another variant, or another session id, under its signature.
      `${reencoded({ v: { [experiment.id]: other } })}.${signature}`,
      `${reencoded({ s: madeUpSessionId() })}.${signature}`,
      // Signed with a key that is not the API's.
      signVisitSession('un-segreto-che-non-e-quello-della-api', {
        sessionId: madeUpSessionId(),
        variants: { [experiment.id]: other },
        expiresAt: realExpiry,
      }),
      'non.firmato',
      'x'.repeat(5000),
    ];

    for (const variant of experiment.variants.map(({ id }) => id)) {
      // No session at all, a fresh made-up id per event, naming each variant.
      await postBatch(forger, { events: [...visitEvents(madeUpSessionId(), variant), ...visitEvents(madeUpSessionId(), variant)] });
      for (const token of forgedTokens) {
        await postBatch(forger, { visitSession: token, events: visitEvents(madeUpSessionId(), variant) });
      }
      // A real session replayed (the victim's): it counts as that one visit, already counted,
      // with its own variant, whatever the events name and whatever session id they give.
      await postBatch(forger, { visitSession: victim!.session.token, events: visitEvents(madeUpSessionId(), variant) });
      // The single-event endpoints of the spec.
      const single = await as(request(api.app).post('/api/analytics/page-view'), forger).send({
        sessionId: madeUpSessionId(),
        path: experiment.path,
        heroVariant: variant,
        visitSession: forgedTokens[0],
      });
      expect(single.status).toBe(202);
    }
    await stored();

    const after = await report();
    expect(after).toEqual(before);
    // The forged landings are stored, but in no variant of the funnel (or in the victim's).
    const variants = await landingVariants();
    expect(variants.filter((variant) => variant !== null).sort()).toEqual([...honest.map((visit) => visit.variant), ...Array(3).fill(victim!.variant)].sort());
    // Each forged page view is stored (analytics stay best-effort), none with a variant.
    const withoutVariant = await api.db('page_views').where({ path: experiment.path }).whereNull('hero_variant').count({ n: '*' }).first();
    expect(Number(withoutVariant!.n)).toBe(experiment.variants.length * (2 + forgedTokens.length + 1));
    expect(Number((await api.db('page_views').where({ path: experiment.path, session_id: victim!.session.sessionId }).count({ n: '*' }).first())!.n)).toBe(4);
  });

  it('counts a lead that names another variant as the variant the server assigned it', async () => {
    const forger = visitorNo(51);
    const served = await servedVariant(forger);
    const other = experiment.variants.find(({ id }) => id !== served)!.id;
    const start = countsOf(await report());

    // JSON without a valid session: the variant this request is served.
    const json = await as(request(api.app).post('/api/ebook-request'), forger).send(
      validLead({ landingPath: experiment.path, heroVariant: other, visitSession: 'non.firmato' }),
    );
    expect(json.status).toBe(201);
    // The form without JavaScript, its hidden field changed: the same.
    const form = await as(request(api.app).post('/api/ebook-request'), forger)
      .type('form')
      .send({
        nome: 'Luca',
        cognome: 'Bianchi',
        email: 'luca.bianchi@example.it',
        telefono: uniqueItalianMobile(),
        gdprConsent: 'on',
        landingPath: experiment.path,
        heroVariant: other,
      });
    expect(form.status).toBe(303);
    // A session of its own names its variant: the one the server put in it.
    const own = await visitSession(forger);
    const signed = await as(request(api.app).post('/api/ebook-request'), forger).send(
      validLead({ landingPath: experiment.path, heroVariant: other, visitSession: own.token }),
    );
    expect(signed.status).toBe(201);

    const rows = await api.db('ebook_requests').whereIn('id', [json.body.id, signed.body.id]).orWhere('email', 'luca.bianchi@example.it').pluck('hero_variant');
    expect(rows).toEqual([served, served, served]);
    const end = countsOf(await report());
    expect(end).toEqual({ ...start, [served]: { ...start[served]!, leads: start[served]!.leads + 3 } });
    expect(end[other]).toEqual(start[other]);
  });
});
