/** The × of a widget or banner: a 32 px target, named for screen readers. */
export function CloseButton({ label, onClick, onRed = false, className = '' }: {
  label: string;
  onClick: () => void;
  /** On the red risk banner rather than a white card. */
  onRed?: boolean;
  /** Placement within the owner. */
  className?: string;
}) {
  const colours = onRed ? 'text-white hover:bg-red-800' : 'text-slate-600 hover:bg-slate-100 hover:text-slate-900';
  return (
    <button
      type="button"
      onClick={onClick}
      aria-label={label}
      className={`inline-flex h-8 w-8 shrink-0 items-center justify-center rounded text-xl leading-none ${colours} ${className}`}
    >
      <span aria-hidden="true">×</span>
    </button>
  );
}
