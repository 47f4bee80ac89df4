import { useAdminConfiguration } from './alert-queries';

/**
 * The red warning above every tab while no CRM is configured (CRM_WEBHOOK_URL empty):
 * every lead is then marked "Saltato" for the CRM and reaches nobody but this dashboard.
 */
export function CrmConfigurationAlert() {
  const configuration = useAdminConfiguration();
  if (configuration.data?.crmConfigured !== false) return null;
  return (
    <section role="alert" aria-label="CRM non configurato" className="mb-4 rounded-md border-2 border-red-700 bg-red-50 p-4 text-red-900">
      <h2 className="text-lg font-bold">CRM non configurato</h2>
      <p className="mt-1 text-sm">
        I lead non vengono inoltrati a nessun CRM: <code className="font-mono">CRM_WEBHOOK_URL</code> è vuoto, quindi ogni
        invio al CRM risulta «Saltato». Imposta <code className="font-mono">CRM_WEBHOOK_URL</code> e{' '}
        <code className="font-mono">CRM_WEBHOOK_SECRET</code> e riavvia API e worker; poi usa «Reinvia al CRM» per i lead
        già saltati.
      </p>
    </section>
  );
}
