import { useEffect, type RefObject } from 'react';

/**
 * Starts `load` (e.g. a form's lazily imported validation) the first time anything in the
 * form gets focus: well before the visitor submits, never on the first paint.
 */
export function useLoadOnFirstFocus(formRef: RefObject<HTMLFormElement | null>, load: () => Promise<unknown>) {
  useEffect(() => {
    const form = formRef.current;
    const start = () => void load();
    form?.addEventListener('focusin', start, { once: true });
    return () => form?.removeEventListener('focusin', start);
  }, [formRef, load]);
}
