import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HERO_EXPERIMENTS, variantPagePath } from '@guida/shared/experiments';
import { validationMessages } from '@guida/shared/messages';
import { signInAsAdmin } from '../testing/admin-session';
import { createSiteFixture } from '../testing/site-fixture';
import { createTestApi, validLead, type TestApi } from '../testing/test-api';

const experiment = HERO_EXPERIMENTS[0]!;
const variantIds = experiment.variants.map((variant) => variant.id);
const dataPathOf = (pagePath: string) => `${pagePath}.data`;

/** The fixture build plus each variant's page and route data, each naming its variant. */
function createExperimentSite() {
  const site = createSiteFixture();
  const write = (relative: string, content: string) => {
    const file = path.join(site.dir, relative);
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, content);
  };
  for (const id of variantIds) {
    const pagePath = variantPagePath(experiment, id);
    write(`${pagePath}/index.html`, `<!doctype html><html lang="it"><body><section data-hero-variant="${id}">Variante ${id}</section></body></html>`);
    write(dataPathOf(pagePath), `[{"variant":"${id}"}]`);
  }
  return site;
}

const variantOf = (html: string) => /data-hero-variant="(\w+)"/.exec(html)?.[1];
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

  it('stores the variant of a lead, and refuses one the page does not have', async () => {
    const post = (body: unknown) => request(api.app).post('/api/ebook-request').set('Content-Type', 'application/json').send(JSON.stringify(body));
    const stored = await post(validLead({ landingPath: experiment.path, heroVariant: variantIds[1] }));
    expect(stored.status).toBe(201);
    expect(await api.db('ebook_requests').where({ id: stored.body.id }).first()).toMatchObject({ hero_variant: variantIds[1] });

    for (const body of [
      validLead({ landingPath: experiment.path, heroVariant: 'z' }),
      validLead({ landingPath: '/', heroVariant: variantIds[0] }),
    ]) {
      const refused = await post(body);
      expect(refused.status).toBe(400);
      expect(refused.body.errors).toEqual({ heroVariant: validationMessages.heroVariant });
    }
  });

  it("takes a page view's variant only of its page's experiment", async () => {
    const pageView = (path: string, heroVariant: string) => ({ sessionId: 'V1StGXR8_Z5jdHi6B-myT', path, heroVariant });
    const single = (body: object) => request(api.app).post('/api/analytics/page-view').send(body);
    expect((await single(pageView(experiment.path, variantIds[1]!))).status).toBe(202);
    for (const body of [pageView(experiment.path, 'z'), pageView('/oro-svizzera', variantIds[1]!)]) {
      const refused = await single(body);
      expect(refused.status).toBe(400);
      expect(refused.body.errors).toEqual({ heroVariant: validationMessages.heroVariant });
    }
    const batch = await request(api.app)
      .post('/api/analytics/batch')
      .send({ events: [{ type: 'page-view', ...pageView(experiment.path, 'z') }] });
    expect(batch.status).toBe(400);
  });

  it("takes a funnel landing's variant only of its page's experiment, and refuses hostile values", async () => {
    const landing = (path: string, heroVariant: string) => ({
      type: 'conversion',
      sessionId: 'V1StGXR8_Z5jdHi6B-myT',
      step: 'landing',
      metadata: { path, utm_source: 'google', hero_variant: heroVariant },
    });
    const batch = (event: object) => request(api.app).post('/api/analytics/batch').send({ events: [event] });
    expect((await batch(landing(experiment.path, variantIds[1]!))).status).toBe(202);
    for (const [event, message] of [
      [landing(experiment.path, 'z'), validationMessages.heroVariant],
      [landing('/oro-svizzera', variantIds[1]!), validationMessages.heroVariant],
      [landing(experiment.path, `${variantIds[1]}\u0000`), validationMessages.heroVariant],
      [landing(experiment.path, 'b'.repeat(5000)), validationMessages.heroVariant],
    ] as const) {
      const refused = await batch(event);
      expect(refused.status, JSON.stringify(event).slice(0, 80)).toBe(400);
      expect(Object.values(refused.body.errors ?? {}), JSON.stringify(event).slice(0, 80)).toEqual([message]);
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
    expect(report.report.results.map((result: { variantId: string; visitors: number; leads: number }) => [result.variantId, result.visitors, result.leads])).toEqual([
      [variantIds[0], 10, 0],
      [variantIds[1], 11, 1],
      [variantIds[2], 12, 0],
    ]);
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
