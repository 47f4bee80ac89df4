import { useEffect, useId, useRef, useState } from 'react';

/**
 * A small "i" button that shows a short explanation under it, by tap, click or keyboard
 * (a toggletip: a hover tooltip cannot be opened on a phone). Escape or a tap elsewhere
 * closes it. The text takes its own line in a wrapping row, so it never covers a field.
 */
export function InfoToggletip({ label, children }: { label: string; children: React.ReactNode }) {
  const [open, setOpen] = useState(false);
  const textId = useId();
  const button = useRef<HTMLButtonElement>(null);
  const text = useRef<HTMLParagraphElement>(null);

  // Listening from the start, not from the render that opened it: effects run in a later
  // task, and the browser may handle a key or a tap before that task.
  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key !== 'Escape') return;
      setOpen(false);
      if (text.current?.contains(document.activeElement)) button.current?.focus();
    };
    const onPointerDown = (event: PointerEvent) => {
      const target = event.target as Node;
      if (!button.current?.contains(target) && !text.current?.contains(target)) setOpen(false);
    };
    document.addEventListener('keydown', onKeyDown);
    document.addEventListener('pointerdown', onPointerDown);
    return () => {
      document.removeEventListener('keydown', onKeyDown);
      document.removeEventListener('pointerdown', onPointerDown);
    };
  }, []);

  return (
    <>
      <button
        ref={button}
        type="button"
        aria-label={label}
        aria-expanded={open}
        aria-controls={textId}
        onClick={() => setOpen((wasOpen) => !wasOpen)}
        className="inline-flex h-6 w-6 items-center justify-center rounded-full border border-slate-400 text-xs font-semibold text-slate-700 aria-expanded:border-emerald-700 aria-expanded:bg-emerald-50"
      >
        i
      </button>
      <p
        ref={text}
        id={textId}
        hidden={!open}
        className="basis-full rounded-md bg-slate-900 px-3 py-2 text-sm font-normal text-white"
      >
        {children}
      </p>
    </>
  );
}
