import { useEffect } from 'react';
import { useCookieConsent } from '../consent';
import { applyCookieChoice } from './attribution';

/**
 * Keeps the visit's ad click ids, or drops them, as the cookie choice says once it is known
 * (decision 049): after the page is idle, and again whenever the visitor changes it.
 */
export function ClickIdsByConsent() {
  const { status, flags } = useCookieConsent();
  const marketing = status === 'decided' ? flags.marketing : status === 'banner' ? null : undefined;
  useEffect(() => {
    if (marketing !== undefined) applyCookieChoice(marketing);
  }, [marketing]);
  return null;
}
