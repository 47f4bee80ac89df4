/** The loading indicator shown while a page loads. */
export function Spinner({ label = 'Caricamento in corso' }: { label?: string }) {
  return (
    <span role="status" className="inline-flex items-center gap-2">
      <span aria-hidden="true" className="h-6 w-6 animate-spin rounded-full border-2 border-emerald-700 border-t-transparent" />
      <span className="sr-only">{label}</span>
    </span>
  );
}
