import { useEffect, useRef, type ReactNode } from 'react';

/**
 * A modal panel on the right, on the browser's own <dialog>: showModal() gives the focus
 * trap, Escape, an inert page behind and the backdrop without any script-injected style
 * (Radix's dialog injects <style> tags for its scroll lock, which our CSP refuses; the
 * scroll lock is one rule in app.css instead).
 */
export function SideSheet({
  open,
  onClose,
  labelledBy,
  describedBy,
  className = '',
  onClosed,
  children,
}: {
  open: boolean;
  /** Escape, a click on the backdrop or a close button: the owner decides. */
  onClose: () => void;
  labelledBy: string;
  describedBy?: string;
  className?: string;
  /** After the panel closed, e.g. to put the focus back where it was. */
  onClosed?: () => void;
  children: ReactNode;
}) {
  const dialog = useRef<HTMLDialogElement>(null);

  useEffect(() => {
    const element = dialog.current;
    if (!element) return;
    if (open && !element.open) element.showModal();
    if (!open && element.open) {
      element.close();
      onClosed?.();
    }
  }, [open, onClosed]);

  return (
    <dialog
      ref={dialog}
      aria-labelledby={labelledBy}
      aria-describedby={describedBy}
      onCancel={(event) => {
        event.preventDefault();
        onClose();
      }}
      onClick={(event) => {
        // Only a click on the backdrop lands on the <dialog> element itself.
        if (event.target === event.currentTarget) onClose();
      }}
      className={`fixed inset-y-0 right-0 left-auto m-0 h-full max-h-none w-full max-w-none overflow-y-auto bg-white p-6 shadow-xl backdrop:bg-slate-900/40 focus:outline-none ${className}`}
    >
      {open ? children : null}
    </dialog>
  );
}
