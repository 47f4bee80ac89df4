import { Router } from 'express';
import type { AlertIncident, AlertIncidents } from '@guida/shared/alerts';
import type { ApiDeps } from '../../dependencies';

/** Resolved incidents shown: those of the last week, the latest first, at most this many. */
const RESOLVED_DAYS = 7;
const RESOLVED_SHOWN = 20;

interface IncidentRow {
  id: number;
  kind: AlertIncident['kind'];
  opened_at: Date;
  resolved_at: Date | null;
  details: AlertIncident['details'];
}

const incidentOf = (row: IncidentRow) =>
  ({
    id: Number(row.id),
    kind: row.kind,
    openedAt: row.opened_at.toISOString(),
    resolvedAt: row.resolved_at?.toISOString() ?? null,
    details: row.details,
  }) as AlertIncident;

/**
 * The alerts the worker evaluates (decision 039): the open incidents, for the red banner
 * above every tab, and the recently resolved ones.
 */
export function adminAlertsRouter(deps: ApiDeps) {
  const router = Router();

  router.get('/alerts', async (_req, res) => {
    const [open, resolved] = await Promise.all([
      deps.db('alert_incidents').whereNull('resolved_at').orderBy('opened_at').select<IncidentRow[]>(),
      deps.db('alert_incidents')
        .where('resolved_at', '>', deps.db.raw(`now() - make_interval(days => ?)`, [RESOLVED_DAYS]))
        .orderBy('resolved_at', 'desc')
        .limit(RESOLVED_SHOWN)
        .select<IncidentRow[]>(),
    ]);
    const answer: AlertIncidents = { open: open.map(incidentOf), resolved: resolved.map(incidentOf) };
    res.json(answer);
  });

  return router;
}
