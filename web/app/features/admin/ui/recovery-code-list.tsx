import { useId } from 'react';

/**
 * Recovery codes as the admin must save them: shown once (at enrolment, or when
 * regenerated), each usable once in place of the app's code.
 */
export function RecoveryCodeList({ codes }: { codes: readonly string[] }) {
  const titleId = useId();
  return (
    <div className="flex flex-col gap-2">
      <p id={titleId} className="text-sm font-semibold text-slate-900">
        Codici di recupero
      </p>
      <ol aria-labelledby={titleId} className="grid grid-cols-1 gap-1 rounded-md bg-slate-100 p-3 font-mono text-sm text-slate-900 sm:grid-cols-2">
        {codes.map((code) => (
          <li key={code}>
            <code className="select-all">{code}</code>
          </li>
        ))}
      </ol>
      <p className="text-sm text-slate-700">
        Conservali in un posto sicuro, lontano dal telefono (stampati o in un gestore di password): ognuno vale una sola volta,
        se non hai l’app a portata di mano. Non verranno mostrati di nuovo.
      </p>
    </div>
  );
}
