import 'altcha/external';
import 'altcha/altcha.css';
import type {} from 'altcha/types/react';
import Pbkdf2Worker from 'altcha/workers/pbkdf2?worker';
import { useEffect, useRef } from 'react';
import { challengeWidgetTexts } from '@guida/shared/messages';

// The `external` build brings neither inline styles nor workers made from blob URLs, so
// it runs under our CSP (scripts, workers and styles from our origin only): the styles
// come as a stylesheet, the PBKDF2 worker as a file of its own.
globalThis.$altcha.algorithms.set('PBKDF2/SHA-256', () => new Pbkdf2Worker());
globalThis.$altcha.i18n.set('it', challengeWidgetTexts);
globalThis.$altcha.defaults.set({
  challenge: '/api/challenge',
  auto: 'onload',
  language: 'it',
  hideFooter: true,
  hideLogo: true,
  // Pointer and scroll events would only matter to ALTCHA's paid server; collect none.
  humanInteractionSignature: false,
});

interface ChallengeWidgetProps {
  onSolved: (payload: string) => void;
  onFailed: () => void;
}

/** The ALTCHA widget, solving its challenge as soon as it is shown. */
export default function ChallengeWidget({ onSolved, onFailed }: ChallengeWidgetProps) {
  const ref = useRef<HTMLElement>(null);
  useEffect(() => {
    const widget = ref.current;
    const verified = (event: Event) => onSolved((event as CustomEvent<{ payload: string }>).detail.payload);
    const changed = (event: Event) => {
      const { state } = (event as CustomEvent<{ state: string }>).detail;
      if (state === 'error' || state === 'expired') onFailed();
    };
    widget?.addEventListener('verified', verified);
    widget?.addEventListener('statechange', changed);
    return () => {
      widget?.removeEventListener('verified', verified);
      widget?.removeEventListener('statechange', changed);
    };
  }, [onSolved, onFailed]);
  return <altcha-widget ref={ref} />;
}
