import type { ReactNode } from 'react';

/** A field's message under it; the field names it in aria-describedby. */
export function ErrorText({ id, children }: { id: string; children: ReactNode }) {
  return (
    <p id={id} className="mt-1 text-sm font-medium text-red-700">
      {children}
    </p>
  );
}
