import type { ExperimentReport } from '../experiment-stats';

/** An experiment in the admin (GET /api/admin/experiments), with its plan fixed in advance. */
export interface AdminExperiment {
  id: string;
  name: string;
  path: string;
  startedAt: string;
  plan: { baselineConversion: number; minimumDetectableEffect: number; alpha: number; power: number };
  /** null while running. */
  stopped: { at: string; winner: string } | null;
  report: ExperimentReport;
}

export interface AdminExperimentList {
  experiments: AdminExperiment[];
}
