import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_PATHS } from '@guida/shared/page-paths';
import { PERMISSIONS_POLICY } from '../http/security-headers';
import { createSiteFixture } from '../testing/site-fixture';
import { createTestApi, type TestApi } from '../testing/test-api';
import { withoutTrailingSlash } from './site.routes';

describe('the site routes', () => {
  const site = createSiteFixture();
  let api: TestApi;
  beforeAll(async () => {
    api = await createTestApi({ WEB_BUILD_DIR: site.dir });
  });
  afterAll(async () => {
    await api.close();
    site.remove();
  });

  it('redirects a trailing slash to the same page, query kept', async () => {
    const response = await request(api.app).get('/trading-svizzera/?utm_source=x');
    expect(response.status).toBe(301);
    expect(response.headers.location).toBe('/trading-svizzera?utm_source=x');
    expect((await request(api.app).get('/trading-svizzera')).status).toBe(200);
  });

  it('never redirects to another site: //host/ and /\\host/ get the 404 page', async () => {
    for (const path of ['//evil.example/', '///evil.example/', '//evil.example//', '/\\evil.example/']) {
      const response = await request(api.app).get(path);
      expect(response.headers.location, path).toBeUndefined();
      expect(response.status, path).toBe(404);
      expect(response.text, path).toContain('Page Not Found');
    }
    // An encoded backslash is a character of a path of this site, not a separator.
    expect((await request(api.app).get('/%5Cevil.example/')).headers.location).toBe('/%5Cevil.example');
  });

  it('serves the admin pages the app shell, answers unknown /admin paths 404 and sends /admin to the dashboard', async () => {
    for (const path of ADMIN_PATHS) {
      const response = await request(api.app).get(path);
      expect(response.status, path).toBe(200);
      expect(response.text, path).toContain('App shell');
      expect(response.headers['x-robots-tag'], path).toBe('noindex, nofollow');
      expect(response.headers['cross-origin-opener-policy'], path).toBe('same-origin');
    }
    for (const path of ['/admin/nulla', '/admin/dashboard/lead/1', '/admin/login.php', '/admin-qualcosa', '/administrator']) {
      const response = await request(api.app).get(path);
      expect(response.status, path).toBe(404);
      expect(response.text, path).toContain('Page Not Found');
    }
    const folder = await request(api.app).get('/admin');
    expect(folder.status).toBe(302);
    expect(folder.headers.location).toBe('/admin/dashboard');
    expect((await request(api.app).get('/admin/')).headers.location).toBe('/admin');
  });

  it('only ever names a path of this site as the target', () => {
    expect(withoutTrailingSlash('/grazie-italia/')).toBe('/grazie-italia');
    expect(withoutTrailingSlash('/a/b//')).toBe('/a/b');
    expect(withoutTrailingSlash('//evil.example/')).toBeNull();
    expect(withoutTrailingSlash('/\\evil.example/')).toBeNull();
    expect(withoutTrailingSlash('/a\\b/')).toBeNull();
    expect(withoutTrailingSlash('/\t/evil.example/')).toBeNull();
    expect(withoutTrailingSlash('//')).toBeNull();
  });

  it('sends brotli whenever the browser accepts it, gzip when only that, else the plain file', async () => {
    const cases: [string, string | undefined][] = [
      // Chromium's and Firefox's header: gzip comes first without being preferred.
      ['gzip, deflate, br, zstd', 'br'],
      ['br', 'br'],
      ['gzip, deflate', 'gzip'],
      ['gzip, br;q=0', 'gzip'],
      ['identity', undefined],
    ];
    for (const path of ['/', '/assets/app-abc123.js']) {
      for (const [accepted, expected] of cases) {
        const response = await request(api.app).get(path).set('Accept-Encoding', accepted);
        expect(response.status, `${path} ${accepted}`).toBe(200);
        expect(response.headers['content-encoding'], `${path} ${accepted}`).toBe(expected);
        expect(response.headers.vary, path).toBe('Accept-Encoding');
      }
    }
  });

  it('sends the Permissions-Policy on pages, files, API answers and errors', async () => {
    expect(PERMISSIONS_POLICY).toMatch(/(^|, )camera=\(\)/);
    for (const feature of ['microphone', 'geolocation', 'payment', 'usb']) {
      expect(PERMISSIONS_POLICY).toContain(`${feature}=()`);
    }
    for (const path of ['/', '/trading-svizzera', '/assets/app-abc123.js', '/pagina-che-non-esiste', '/api/live-stats?path=/', '/api/nulla', '/healthz']) {
      const response = await request(api.app).get(path);
      expect(response.headers['permissions-policy'], path).toBe(PERMISSIONS_POLICY);
    }
    const refused = await request(api.app).post('/api/cookie-consent').set('Sec-Fetch-Site', 'cross-site').send({});
    expect(refused.status).toBe(403);
    expect(refused.headers['permissions-policy']).toBe(PERMISSIONS_POLICY);
  });

  it('lets the public pages open in the default browsing context group, and keeps the admin and the API isolated', async () => {
    for (const path of ['/', '/trading-svizzera', '/pagina-che-non-esiste', '/admin/nulla']) {
      const response = await request(api.app).get(path);
      expect(response.headers['content-type'], path).toContain('text/html');
      expect(response.headers['cross-origin-opener-policy'], path).toBeUndefined();
    }
    for (const path of ['/admin/dashboard', '/api/live-stats?path=/', '/healthz']) {
      expect((await request(api.app).get(path)).headers['cross-origin-opener-policy'], path).toBe('same-origin');
    }
  });
});
