import { useState } from 'react';
import type { QueueStats } from '@guida/shared/schemas/admin';
import { useAdminPost } from '../admin-api';
import {
  EMPTY_VALUE,
  formatClock,
  formatDateTime,
  formatDecimal,
  formatDuration,
  formatNumber,
  queueLabel,
} from '../ui/admin-format';
import { CARD_CLASS, DataTable, FOCUS_RING, Section } from '../ui/admin-ui';
import { ErrorNotice, Loading } from '../ui/query-state';
import { refreshesQueues, retryJobUrl, useFailedJobs, useQueueStats } from './queue-queries';

type Queue = QueueStats['queues'][number];

/** Live state of the job queues and of the analytics stream (polled every 5 s). */
export function QueuesTab() {
  const stats = useQueueStats();
  if (stats.isPending) return <Loading label="Caricamento delle code" />;
  if (stats.data === undefined) return <ErrorNotice error={stats.error} onRetry={() => void stats.refetch()} />;
  const { queues, analytics, sms } = stats.data;
  return (
    <div className="flex flex-col gap-4">
      <p className="text-sm text-slate-700">
        Aggiornato alle {formatClock(stats.dataUpdatedAt)}, aggiornamento automatico ogni 5 secondi.
      </p>
      {stats.isError ? <ErrorNotice error={stats.error} /> : null}
      <SmsPromise sms={sms} />
      <div className="grid gap-4 lg:grid-cols-2">
        {queues.map((queue) => (
          <QueueCard key={queue.name} queue={queue} />
        ))}
      </div>
      <p className={`${CARD_CLASS} text-sm text-slate-800`}>
        <span className="font-semibold text-slate-900">Stream analytics:</span> {formatNumber(analytics.length)} voci in
        attesa, {formatNumber(analytics.pending)} in elaborazione, ritardo{' '}
        {analytics.lag === null ? 'non disponibile' : `di ${formatNumber(analytics.lag)} voci`}.
      </p>
      <DeadLetters deadLetters={analytics.deadLetters} />
    </div>
  );
}

/** Analytics events PostgreSQL refused: set aside so that ingestion goes on. */
function DeadLetters({ deadLetters }: { deadLetters: QueueStats['analytics']['deadLetters'] }) {
  if (deadLetters.total === 0) {
    return <p className="text-sm text-slate-700">Nessun evento analytics scartato.</p>;
  }
  return (
    <Section title="Eventi analytics scartati">
      <p className="text-sm text-slate-800">
        {formatNumber(deadLetters.total)} {deadLetters.total === 1 ? 'evento rifiutato' : 'eventi rifiutati'} dal database
        o illeggibili, messi da parte senza fermare la raccolta ({formatNumber(deadLetters.kept)} conservati in Redis per
        l’analisi).
      </p>
      <DataTable
        caption="Ultimi eventi analytics scartati"
        columns={[{ label: 'Scartato il' }, { label: 'Motivo' }]}
        rows={deadLetters.latest.map((letter, index) => ({
          key: `${letter.at}-${index}`,
          cells: [formatDateTime(letter.at), letter.reason],
        }))}
        empty="Nessun evento conservato."
      />
    </Section>
  );
}

function SmsPromise({ sms }: { sms: QueueStats['sms'] }) {
  const rate = `${formatDecimal(sms.ratePerSecond)} SMS/s`;
  const drain = formatDuration(sms.projectedDrainSeconds);
  if (sms.promiseAtRisk) {
    return (
      <p role="alert" className="rounded-md bg-red-700 p-4 font-semibold text-white">
        Attenzione: con il ritmo di invio attuale ({rate}) gli SMS in coda partiranno tra {drain}: la promessa dei 2 minuti
        è a rischio.
      </p>
    );
  }
  return (
    <p className="rounded-md bg-emerald-50 p-4 font-medium text-emerald-900 ring-1 ring-emerald-700/30">
      {sms.projectedDrainSeconds > 0
        ? `Invio SMS regolare: al ritmo attuale (${rate}) la coda si svuota in ${drain}.`
        : 'Invio SMS regolare: nessun SMS in coda.'}
    </p>
  );
}

const COUNTERS = [
  ['waiting', 'In attesa'],
  ['active', 'In corso'],
  ['delayed', 'Rimandati'],
  ['failed', 'Falliti'],
  ['completed', 'Completati'],
] as const;

/** Why a queue's jobs completed without delivering, per queue that counts them apart. */
const SKIPPED_EXPLANATIONS: Readonly<Record<string, string>> = {
  crm: 'Saltati: invii al CRM non fatti nelle ultime 24 ore perché nessun CRM è configurato.',
  conversions:
    'Saltati: conversioni non inviate a Meta nelle ultime 24 ore (integrazione non configurata, consenso assente o revocato, lead cancellato o evento troppo vecchio); il motivo è nella scheda del lead.',
};

function QueueCard({ queue }: { queue: Queue }) {
  const [showFailed, setShowFailed] = useState(false);
  // A skipped delivery's job completes too: counted apart, it is not called done.
  const counters: (readonly [string, string, number])[] = [
    ...COUNTERS.map(([key, label]) => [key, label, queue[key]] as const),
    ...(queue.skipped === null ? [] : [['skipped', 'Saltati', queue.skipped] as const]),
  ];
  return (
    <Section title={`Coda ${queueLabel(queue.name)}`}>
      <dl className={`grid grid-cols-2 gap-3 ${queue.skipped === null ? 'sm:grid-cols-5' : 'sm:grid-cols-3 xl:grid-cols-6'}`}>
        {counters.map(([key, label, value]) => (
          <div key={key} className="rounded-md bg-slate-50 p-2">
            <dt className="text-xs font-medium text-slate-700">{label}</dt>
            <dd className="text-lg font-semibold tabular-nums text-slate-900">{formatNumber(value)}</dd>
          </div>
        ))}
      </dl>
      {queue.skipped !== null && queue.skipped > 0 ? (
        <p className="mt-2 text-sm text-slate-800">{SKIPPED_EXPLANATIONS[queue.name]}</p>
      ) : null}
      <p className="mt-3 text-sm text-slate-800">
        Attesa del job più vecchio:{' '}
        {queue.oldestWaitingSeconds === null ? 'nessun job in attesa' : formatDuration(queue.oldestWaitingSeconds)}
      </p>
      {queue.failed > 0 ? (
        <details className="mt-3" onToggle={(event) => setShowFailed(event.currentTarget.open)}>
          <summary className={`cursor-pointer rounded text-sm font-semibold text-slate-900 ${FOCUS_RING}`}>
            Job falliti ({formatNumber(queue.failed)})
          </summary>
          {/* Loaded (and polled) only while open. */}
          {showFailed ? <FailedJobs name={queue.name} /> : null}
        </details>
      ) : (
        <p className="mt-3 text-sm text-slate-700">Nessun job fallito.</p>
      )}
    </Section>
  );
}

function FailedJobs({ name }: { name: string }) {
  const jobs = useFailedJobs(name);
  const retry = useAdminPost(refreshesQueues);
  if (jobs.isPending) return <Loading label="Caricamento dei job falliti" />;
  if (jobs.data === undefined) return <ErrorNotice error={jobs.error} onRetry={() => void jobs.refetch()} />;
  return (
    <div className="mt-2">
      <DataTable
        caption={`Job falliti della coda ${queueLabel(name)}`}
        columns={[
          { label: 'ID' },
          { label: 'Tipo' },
          { label: 'Motivo' },
          { label: 'Tentativi', numeric: true },
          { label: 'Fallito il' },
          { label: 'Azione' },
        ]}
        rows={jobs.data.jobs.map((job) => {
          const url = retryJobUrl(name, job.id);
          return {
            key: job.id,
            cells: [
              job.id,
              job.name,
              job.failedReason ?? EMPTY_VALUE,
              formatNumber(job.attemptsMade),
              formatDateTime(job.failedAt),
              <button
                key="retry"
                type="button"
                className="btn-secondary px-3 py-1 disabled:cursor-not-allowed disabled:opacity-50"
                aria-label={`Riprova il job ${job.id}`}
                disabled={retry.isPending && retry.variables.url === url}
                onClick={() => retry.mutate({ url })}
              >
                Riprova
              </button>,
            ],
          };
        })}
        empty="Nessun job fallito."
      />
    </div>
  );
}
