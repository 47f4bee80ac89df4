import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HERO_EXPERIMENTS, variantPagePath } from '@guida/shared/experiments';
import { signInAsAdmin } from '../testing/admin-session';
import { createExperimentSite, dataPathOf, servedVariantOf as variantOf } from '../testing/site-fixture';
import { createTestApi, validLead, type TestApi } from '../testing/test-api';

const experiment = HERO_EXPERIMENTS[0]!;
const variantIds = experiment.variants.map((variant) => variant.id);

/** A visitor: an address (the API trusts loopback proxies in tests) and a browser. */
const visit = (api: TestApi, url: string, ip: string, userAgent = 'Mozilla/5.0 (test)') =>
  request(api.app).get(url).set('X-Forwarded-For', ip).set('User-Agent', userAgent);
const addresses = (count: number) => Array.from({ length: count }, (_, index) => `203.0.${Math.floor(index / 250)}.${(index % 250) + 1}`);

describe('hero experiments', () => {
  const site = createExperimentSite();
  let api: TestApi;
  beforeAll(async () => {
    api = await createTestApi({ WEB_BUILD_DIR: site.dir });
  });
  afterAll(async () => {
    await api.close();
    site.remove();
  });

  it('serves a visitor the same variant on every request, with no cookie and no shared caching', async () => {
    const first = await visit(api, experiment.path, '198.51.100.7');
    expect(first.status).toBe(200);
    const variant = variantOf(first.text);
    expect(variantIds).toContain(variant);
    expect(first.headers['set-cookie']).toBeUndefined();
    expect(first.headers['cache-control']).toBe('private, no-cache');
    for (let again = 0; again < 5; again += 1) {
      expect(variantOf((await visit(api, experiment.path, '198.51.100.7')).text)).toBe(variant);
    }
    // Revalidation answers 304 for the visitor's own variant.
    const revalidated = await visit(api, experiment.path, '198.51.100.7').set('If-None-Match', first.headers.etag!);
    expect(revalidated.status).toBe(304);
    // The route data of client-side navigation follows the same variant.
    const data = await visit(api, dataPathOf(experiment.path), '198.51.100.7');
    expect(data.text).toBe(`[{"variant":"${variant}"}]`);
    expect(data.headers['cache-control']).toBe('private, no-cache');
  });

  it('spreads visitors over every variant, by address and by browser', async () => {
    const seen = new Map<string, number>();
    for (const ip of addresses(300)) {
      const variant = variantOf((await visit(api, experiment.path, ip)).text)!;
      seen.set(variant, (seen.get(variant) ?? 0) + 1);
    }
    // 100 expected each; 60 is five standard deviations away.
    for (const id of variantIds) expect(seen.get(id) ?? 0, id).toBeGreaterThan(60);

    const byBrowser = new Set<string | undefined>();
    for (let index = 0; index < 40; index += 1) {
      byBrowser.add(variantOf((await visit(api, experiment.path, '198.51.100.8', `Browser/${index}`)).text));
    }
    expect(byBrowser.size).toBe(variantIds.length);
  });

  it("answers 404 at a variant's own path, so only the page itself is known", async () => {
    const pagePath = variantPagePath(experiment, variantIds[1]!);
    expect((await request(api.app).get(pagePath)).status).toBe(404);
    expect((await request(api.app).get(dataPathOf(pagePath))).status).toBe(404);
  });

  it("stores a lead with the variant its request is served, whatever it names, and none off the experiment's page", async () => {
    const ip = '198.51.100.20';
    const served = variantOf((await visit(api, experiment.path, ip)).text)!;
    const named = variantIds.find((id) => id !== served)!;
    const post = (body: object) =>
      request(api.app).post('/api/ebook-request').set('X-Forwarded-For', ip).set('User-Agent', 'Mozilla/5.0 (test)').send(body);
    const stored = await post(validLead({ landingPath: experiment.path, heroVariant: named }));
    expect(stored.status).toBe(201);
    expect(await api.db('ebook_requests').where({ id: stored.body.id }).first()).toMatchObject({ hero_variant: served });
    const elsewhere = await post(validLead({ landingPath: '/', heroVariant: named }));
    expect(elsewhere.status).toBe(201);
    expect(await api.db('ebook_requests').where({ id: elsewhere.body.id }).first()).toMatchObject({ hero_variant: null });
  });

  it('issues a visit session per request, not cached, with a session id of the spec', async () => {
    const first = await visit(api, '/api/analytics/session', '198.51.100.21');
    expect(first.status).toBe(200);
    expect(first.headers['cache-control']).toBe('no-store');
    expect(first.headers['set-cookie']).toBeUndefined();
    expect(first.body).toEqual({ sessionId: expect.stringMatching(/^[A-Za-z0-9_-]{21}$/), token: expect.any(String), expiresIn: expect.any(Number) });
    expect(first.body.expiresIn).toBeGreaterThan(0);
    expect(first.body.expiresIn).toBeLessThanOrEqual(86_400);
    const second = await visit(api, '/api/analytics/session', '198.51.100.21');
    expect(second.body.sessionId).not.toBe(first.body.sessionId);
  });

  it('limits the visit sessions of each client (ANALYTICS_SESSIONS_PER_IP_PER_HOUR)', async () => {
    const limited = await createTestApi({ ANALYTICS_SESSIONS_PER_IP_PER_HOUR: '2' });
    try {
      for (let again = 0; again < 2; again += 1) expect((await visit(limited, '/api/analytics/session', '198.51.100.22')).status).toBe(200);
      const refused = await visit(limited, '/api/analytics/session', '198.51.100.22');
      expect(refused.status).toBe(429);
      expect(refused.body.message).toMatch(/Riprova/);
      expect((await visit(limited, '/api/analytics/session', '192.0.2.44')).status).toBe(200);
    } finally {
      await limited.close();
    }
  });

  it('reports visitors, leads and the verdict per variant, then a stop serves the winner to everyone', async () => {
    await api.db('page_views').insert(
      variantIds.flatMap((id, index) =>
        Array.from({ length: 10 + index }, (_, visitor) => ({
          event_id: crypto.randomUUID(),
          session_id: `s-${id}-${visitor}`,
          path: experiment.path,
          hero_variant: id,
          timestamp: new Date(),
        })),
      ),
    );
    const admin = await signInAsAdmin(api);
    const listed = await admin.agent.get('/api/admin/experiments');
    expect(listed.status).toBe(200);
    const report = listed.body.experiments.find((entry: { id: string }) => entry.id === experiment.id);
    expect(report.stopped).toBeNull();
    // The one lead of the experiment's page stored above, in the variant its request was served.
    const leadVariants: string[] = await api.db('ebook_requests').where({ landing_path: experiment.path }).pluck('hero_variant');
    expect(leadVariants).toHaveLength(1);
    expect(report.report.results.map((result: { variantId: string; visitors: number; leads: number }) => [result.variantId, result.visitors, result.leads])).toEqual(
      variantIds.map((id, index) => [id, 10 + index, id === leadVariants[0] ? 1 : 0]),
    );
    expect(report.report.complete).toBe(false);
    expect(report.report.verdict).toMatch(/^Non ancora significativo: servono [\d.]+ visitatori per variante/);

    const winner = variantIds[2]!;
    const keepUrl = (variant: string) => `/api/admin/experiments/${experiment.id}/keep/${variant}`;
    expect((await admin.agent.post(keepUrl(winner))).status).toBe(403);
    const unknown = await admin.agent.post(keepUrl('z')).set('X-CSRF-Token', admin.csrfToken);
    expect(unknown.status).toBe(400);
    expect((await admin.agent.post(`/api/admin/experiments/nessuno/keep/${winner}`).set('X-CSRF-Token', admin.csrfToken)).status).toBe(404);

    const stopped = await admin.agent.post(keepUrl(winner)).set('X-CSRF-Token', admin.csrfToken);
    expect(stopped.status).toBe(200);
    expect(stopped.body.message).toMatch(/^Esperimento fermato/);
    for (const ip of addresses(30)) {
      expect(variantOf((await visit(api, experiment.path, ip)).text), ip).toBe(winner);
    }
    expect((await visit(api, dataPathOf(experiment.path), '198.51.100.9')).text).toBe(`[{"variant":"${winner}"}]`);

    const again = await admin.agent.post(keepUrl(variantIds[0]!)).set('X-CSRF-Token', admin.csrfToken);
    expect(again.status).toBe(409);
    const audit = await api.db('admin_audit_log').where({ action: 'stop_hero_experiment' });
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({ target_type: 'hero_experiment', target_id: experiment.id, details: { winner } });
    const after = (await admin.agent.get('/api/admin/experiments')).body.experiments.find((entry: { id: string }) => entry.id === experiment.id);
    expect(after.stopped).toEqual({ at: expect.any(String), winner });
  });
});
