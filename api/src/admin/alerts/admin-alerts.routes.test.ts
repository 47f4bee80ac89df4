import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signInAsAdmin } from '../../testing/admin-session';
import { createTestApi, type TestApi } from '../../testing/test-api';

let api: TestApi;
let admin: Awaited<ReturnType<typeof signInAsAdmin>>;
const DAY = 24 * 3600_000;
const ago = (ms: number) => new Date(Date.now() - ms);

beforeAll(async () => {
  api = await createTestApi();
  admin = await signInAsAdmin(api);
  const incident = (kind: string, openedAt: Date, resolvedAt: Date | null, details: object) => ({
    kind,
    opened_at: openedAt,
    resolved_at: resolvedAt,
    details: JSON.stringify(details),
    updated_at: resolvedAt ?? openedAt,
  });
  await api.db('alert_incidents').insert([
    incident('sms_budget', ago(600_000), null, { held: 3, trippedBudgets: 1 }),
    incident('crm_failing', ago(3600_000), null, { failingMinutes: 60, thresholdMinutes: 15, failedDeliveries: 4, lastHttpStatus: 503 }),
    incident('sms_p95', ago(2 * DAY), ago(2 * DAY - 600_000), { p95Seconds: 100, thresholdSeconds: 90, sms: 12, windowMinutes: 10 }),
    // Resolved more than a week ago: no longer shown.
    incident('sms_p95', ago(9 * DAY), ago(9 * DAY - 600_000), { p95Seconds: 95, thresholdSeconds: 90, sms: 12, windowMinutes: 10 }),
  ]);
});
afterAll(async () => {
  await api.close();
});

describe('GET /api/admin/alerts', () => {
  it('gives the open incidents, oldest first, and those resolved in the last week', async () => {
    const response = await admin.agent.get('/api/admin/alerts');
    expect(response.status).toBe(200);
    expect(response.body.open.map((incident: { kind: string }) => incident.kind)).toEqual(['crm_failing', 'sms_budget']);
    expect(response.body.open[0]).toEqual({
      id: expect.any(Number),
      kind: 'crm_failing',
      openedAt: expect.any(String),
      resolvedAt: null,
      details: { failingMinutes: 60, thresholdMinutes: 15, failedDeliveries: 4, lastHttpStatus: 503 },
    });
    expect(response.body.resolved).toHaveLength(1);
    expect(response.body.resolved[0]).toMatchObject({ kind: 'sms_p95', resolvedAt: expect.any(String), details: { p95Seconds: 100 } });
  });

  it('is for signed-in admins only', async () => {
    const response = await request(api.app).get('/api/admin/alerts');
    expect(response.status).toBe(401);
  });
});
