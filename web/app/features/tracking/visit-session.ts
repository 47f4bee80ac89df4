import { useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import type { VisitSessionAnswer } from '@guida/shared/schemas/visit-session';
import { useAfterHydrationIdle } from '../../lib/after-hydration';
import { getJson } from '../../lib/api-client';
import { currentVisit, setVisit, visitOf, type VisitSession as Visit } from './tracker';

const URL = '/api/analytics/session';

/**
 * The tab's signed visit session (decision 051): the session id and hero variants the API
 * counts the tab's events and lead by. Read once the page is idle, unless the tab has one
 * that holds, and again when it expires (at the end of the API's day).
 */
export function VisitSession() {
  const idle = useAfterHydrationIdle();
  const { data, isError } = useQuery<Visit>({
    queryKey: [URL],
    queryFn: async () => visitOf(await getJson<VisitSessionAnswer>(URL)),
    enabled: idle,
    initialData: currentVisit,
    refetchInterval: (query) => (query.state.data ? Math.max(1000, query.state.data.expiresAt - Date.now()) : false),
  });
  useEffect(() => {
    if (data) setVisit(data);
    else if (isError) setVisit(null);
  }, [data, isError]);
  return null;
}

/** The token the lead is sent with, while the tab's visit session holds. */
export const visitSessionToken = () => currentVisit()?.token;
