import { Tabs } from 'radix-ui';
import { useEffect, type ReactNode } from 'react';
import { Navigate } from 'react-router';
import { Spinner } from '../../components/ui/spinner';
import { isForbidden } from './admin-api';
import { AlertIncidents } from './alerts/alert-incidents';
import { CrmConfigurationAlert } from './alerts/crm-configuration-alert';
import { ConversionsTab } from './conversions/conversions-tab';
import { CostsTab } from './costs/costs-tab';
import { ConsentsTab } from './data-requests/consents-tab';
import { ExperimentsTab } from './experiments/experiments-tab';
import { LeadsTab } from './leads/leads-tab';
import { OverviewTab } from './overview/overview-tab';
import { QueuesTab } from './queues/queues-tab';
import { FunnelTab } from './reports/funnel-tab';
import { SecurityTab } from './security/security-tab';
import { useAdminSession, useLogout } from './session/session-queries';
import { SmsBudgetAlert } from './sms-budget/sms-budget-alert';
import { FOCUS_RING } from './ui/admin-ui';
import { ErrorNotice } from './ui/query-state';
import { useUrlValues } from './ui/url-values';
import { trackUserActivity } from './user-activity';

const TABS = [
  { value: 'panoramica', label: 'Panoramica', Panel: OverviewTab },
  { value: 'lead', label: 'Lead', Panel: LeadsTab },
  { value: 'code', label: 'Code', Panel: QueuesTab },
  { value: 'funnel', label: 'Funnel', Panel: FunnelTab },
  { value: 'esperimenti', label: 'Esperimenti A/B', Panel: ExperimentsTab },
  { value: 'conversioni', label: 'Conversioni', Panel: ConversionsTab },
  { value: 'costi', label: 'Costi', Panel: CostsTab },
  { value: 'consensi', label: 'Consensi e richieste', Panel: ConsentsTab },
  { value: 'sicurezza', label: 'Sicurezza', Panel: SecurityTab },
] as const;
const DEFAULT_TAB = 'panoramica';
const TAB_PARAM = ['tab'] as const;

/**
 * The dashboard behind its guard: signed-out visitors go to the login (which says so when
 * a session ended by itself), non-admins are stopped.
 */
export function AdminShell() {
  const session = useAdminSession();
  // What the admin does, so that only their own requests keep the session open (user-activity.ts).
  useEffect(trackUserActivity, []);
  if (session.isPending) {
    return (
      <Centered>
        <Spinner label="Verifica dell’accesso in corso" />
      </Centered>
    );
  }
  if (isForbidden(session.error) || session.data?.user.isAdmin === false) return <AccessDenied />;
  if (session.data === null) return <Navigate to="/admin/login" replace />;
  if (session.data === undefined) {
    return (
      <Centered>
        <ErrorNotice error={session.error} onRetry={() => void session.refetch()} />
      </Centered>
    );
  }
  return <Dashboard username={session.data.user.username} />;
}

function Centered({ children }: { children: ReactNode }) {
  return <main className="flex min-h-screen items-center justify-center px-4">{children}</main>;
}

function LogoutButton() {
  const logout = useLogout();
  return (
    <button type="button" className="btn-secondary" disabled={logout.isPending} onClick={() => logout.mutate()}>
      {logout.isPending ? 'Uscita in corso...' : 'Esci'}
    </button>
  );
}

function AccessDenied() {
  return (
    <main className="mx-auto flex max-w-md flex-col items-start gap-4 px-4 py-24">
      <h1 className="text-2xl font-bold text-slate-900">Area amministrazione</h1>
      <p role="alert" className="rounded-md bg-red-50 p-3 font-medium text-red-800">
        Accesso negato: il tuo account non è amministratore.
      </p>
      <LogoutButton />
    </main>
  );
}

function Dashboard({ username }: { username: string }) {
  // The selected tab lives in the URL, so a reload (or a shared link) opens the same one.
  const [values, update] = useUrlValues(TAB_PARAM);
  const tab = TABS.some(({ value }) => value === values.tab) ? values.tab : DEFAULT_TAB;
  return (
    <div className="min-h-screen">
      <header className="border-b border-slate-200 bg-white">
        <div className="mx-auto flex max-w-7xl flex-wrap items-center justify-between gap-3 px-4 py-3">
          <h1 className="text-xl font-bold text-slate-900">Area amministrazione</h1>
          <div className="flex items-center gap-3 text-sm text-slate-700">
            <span>
              Accesso come <strong className="text-slate-900">{username}</strong>
            </span>
            <LogoutButton />
          </div>
        </div>
      </header>
      <main className="mx-auto max-w-7xl px-4 py-6">
        <AlertIncidents />
        <CrmConfigurationAlert />
        <SmsBudgetAlert />
        <Tabs.Root value={tab} onValueChange={(value) => update({ tab: value })}>
          <Tabs.List aria-label="Sezioni dell’area amministrazione" className="mb-4 flex flex-wrap gap-1 border-b border-slate-300">
            {TABS.map(({ value, label }) => (
              <Tabs.Trigger
                key={value}
                value={value}
                className={`-mb-px rounded-t-md border-b-2 border-transparent px-4 py-2 text-sm font-semibold text-slate-700 hover:text-slate-900 data-[state=active]:border-emerald-700 data-[state=active]:text-emerald-800 ${FOCUS_RING}`}
              >
                {label}
              </Tabs.Trigger>
            ))}
          </Tabs.List>
          {TABS.map(({ value, Panel }) => (
            <Tabs.Content key={value} value={value} className={`rounded-md ${FOCUS_RING}`}>
              <Panel />
            </Tabs.Content>
          ))}
        </Tabs.Root>
      </main>
    </div>
  );
}
