import { ConsentRates } from '../reports/consent-rates';
import { ConsentHistoryLookup } from './consent-history';
import { DataRequestList } from './data-request-list';

/** Cookie-consent rates, the data-rights requests, and the consent history of an address. */
export function ConsentsTab() {
  return (
    <div className="flex flex-col gap-4">
      <ConsentRates />
      <DataRequestList />
      <ConsentHistoryLookup />
    </div>
  );
}
