import type { Interval, VariantResult } from '@guida/shared/experiment-stats';
import type { AdminExperiment } from '@guida/shared/schemas/admin-experiments';
import { EMPTY_VALUE, formatDateTime, formatNumber, formatShare } from '../ui/admin-format';
import { DataTable, Section } from '../ui/admin-ui';
import { ConfirmAction } from '../ui/confirm-action';
import { ErrorNotice, Loading } from '../ui/query-state';
import { keepVariantUrl, refreshesExperiments, useExperiments } from './experiment-queries';

const pointsFormat = new Intl.NumberFormat('it-IT', { minimumFractionDigits: 1, maximumFractionDigits: 1 });
/** A difference of two rates in percentage points, with its sign: "+2,5", "−1,0". */
const points = (value: number) => `${value >= 0 ? '+' : '−'}${pointsFormat.format(Math.abs(value) * 100)}`;
const rateInterval = ({ low, high }: Interval) => `${formatShare(low)} – ${formatShare(high)}`;
const differenceInterval = ({ low, high }: Interval) => `da ${points(low)} a ${points(high)} punti`;

const OUTCOME_LABELS: Record<NonNullable<VariantResult['outcome']>, string> = {
  better: 'Migliore del controllo',
  worse: 'Peggiore del controllo',
  same: 'Nessuna differenza',
};

/**
 * The A/B experiments on the landing heroes (decision 041): per variant, visitors, leads,
 * conversion with its interval and the difference from the control; the plan fixed in
 * advance and the verdict, given only once every variant has its sample; keeping a
 * variant stops the experiment.
 */
export function ExperimentsTab() {
  const experiments = useExperiments();
  if (experiments.isPending) return <Loading label="Caricamento degli esperimenti" />;
  if (experiments.data === undefined) return <ErrorNotice error={experiments.error} onRetry={() => void experiments.refetch()} />;
  if (experiments.data.experiments.length === 0) return <p className="text-sm text-slate-700">Nessun esperimento definito.</p>;
  return (
    <div className="flex flex-col gap-4">
      {experiments.data.experiments.map((experiment) => (
        <ExperimentView key={experiment.id} experiment={experiment} />
      ))}
    </div>
  );
}

function ExperimentView({ experiment }: { experiment: AdminExperiment }) {
  const { report, plan, stopped } = experiment;
  const confidence = formatShare(report.confidence);
  const winnerLabel = stopped ? report.results.find((result) => result.variantId === stopped.winner)?.label : null;
  const comparisons = Math.max(1, report.results.length - 1);
  return (
    <Section title={experiment.name}>
      <p className="text-sm text-slate-700">
        Pagina <code className="font-mono">{experiment.path}</code> · iniziato il {formatDateTime(experiment.startedAt)} ·{' '}
        {stopped ? (
          <strong className="text-slate-900">
            fermato il {formatDateTime(stopped.at)}: tutti i visitatori vedono «{winnerLabel}»
          </strong>
        ) : (
          <strong className="text-emerald-800">in corso</strong>
        )}
      </p>
      <p className="mt-2 text-sm text-slate-700">
        Test fissato in anticipo: conversione attesa del controllo {formatShare(plan.baselineConversion)}, differenza minima da
        rilevare {points(plan.minimumDetectableEffect)} punti, alpha {formatShare(plan.alpha)}
        {comparisons > 1 ? ` divisa tra ${comparisons} confronti con il controllo` : ''}, potenza {formatShare(plan.power, 0)}:{' '}
        <strong className="text-slate-900">servono {formatNumber(report.sampleSizePerVariant)} visitatori per variante</strong>.
        Il verdetto arriva solo quando ogni variante li ha raggiunti: guardare prima non cambia il risultato.
      </p>
      <p
        className={`mt-3 rounded-md p-3 text-sm font-medium ${report.complete ? 'bg-emerald-50 text-emerald-900' : 'bg-amber-50 text-amber-900'}`}
      >
        {report.verdict}
      </p>
      <div className="mt-3">
        <DataTable
          caption={`Risultati per variante: ${experiment.name}`}
          columns={[
            { label: 'Variante' },
            { label: 'Visitatori', numeric: true },
            { label: 'Lead', numeric: true },
            { label: 'Conversione', numeric: true },
            { label: `Intervallo (${confidence})`, numeric: true },
            { label: 'Differenza dal controllo' },
            { label: 'Esito' },
          ]}
          rows={report.results.map((result) => ({
            key: result.variantId,
            cells: [
              result.label,
              `${formatNumber(result.visitors)} / ${formatNumber(report.sampleSizePerVariant)}`,
              formatNumber(result.leads),
              formatShare(result.conversion),
              rateInterval(result.interval),
              result.difference ? differenceInterval(result.difference) : 'Controllo',
              result.outcome ? OUTCOME_LABELS[result.outcome] : report.complete ? EMPTY_VALUE : 'In attesa del campione',
            ],
          }))}
          empty="Nessuna variante."
        />
      </div>
      {stopped ? null : (
        <div className="mt-4">
          <h3 className="text-base font-semibold text-slate-900">Ferma l’esperimento</h3>
          <p className="mt-1 text-sm text-slate-700">
            {report.recommended
              ? `I numeri indicano di tenere «${report.results.find((result) => result.variantId === report.recommended)?.label}».`
              : 'Fermarlo prima del campione fissato significa scegliere senza prova statistica.'}
          </p>
          <ul className="mt-2 flex flex-wrap gap-3">
            {report.results.map((result) => (
              <li key={result.variantId}>
                <ConfirmAction
                  label={`Tieni «${result.label}»`}
                  question={`Fermare l’esperimento e mostrare a tutti i visitatori «${result.label}»? La scelta è definitiva.`}
                  url={keepVariantUrl(experiment.id, result.variantId)}
                  refreshes={refreshesExperiments}
                  danger
                />
              </li>
            ))}
          </ul>
        </div>
      )}
    </Section>
  );
}
