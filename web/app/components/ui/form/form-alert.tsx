import type { ReactNode } from 'react';

/** What went wrong with the whole form (the server's message), announced when it appears. */
export function FormAlert({ children }: { children: ReactNode }) {
  return (
    <p role="alert" className="rounded-md bg-red-50 p-3 text-sm font-medium text-red-800">
      {children}
    </p>
  );
}
