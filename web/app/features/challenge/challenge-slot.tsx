import { Suspense, lazy } from 'react';
import { challengeMessages } from '@guida/shared/messages';
import type { Challenge } from './use-challenge';

const ChallengeWidget = lazy(() => import('./challenge-widget'));

/**
 * Where a form shows the challenge: nothing until one is needed, then a line saying why
 * and the widget (its code, styles and worker loaded only then). A new round mounts a new
 * widget, which fetches and solves a new challenge on its own.
 */
export function ChallengeSlot({ challenge }: { challenge: Challenge }) {
  if (challenge.round === 0) return null;
  return (
    <div className="flex flex-col gap-2">
      <p role="status" className="text-sm text-slate-700">
        {challengeMessages.intro}
      </p>
      <Suspense fallback={null}>
        <ChallengeWidget key={challenge.round} onSolved={challenge.solved} onFailed={challenge.failed} />
      </Suspense>
    </div>
  );
}
