import { useSyncExternalStore } from 'react';

/** One toast at a time (spec); a dismissed toast stays mounted for its exit, then goes. */
const TOAST_LIMIT = 1;
const TOAST_REMOVE_DELAY_MS = 1_000_000;

export interface ToastMessage {
  id: number;
  title: string;
  description?: string;
  variant: 'default' | 'destructive';
  open: boolean;
}

// The same empty list before and after hydration: a different one would make React
// re-render the root synchronously right after hydrating.
const EMPTY: ToastMessage[] = [];
let toasts = EMPTY;
let nextId = 1;
const listeners = new Set<() => void>();
const removalTimers = new Map<number, ReturnType<typeof setTimeout>>();

function emit(next: ToastMessage[]) {
  toasts = next;
  for (const listener of listeners) listener();
}

export function toast(message: { title: string; description?: string; variant?: ToastMessage['variant'] }) {
  const id = nextId++;
  emit(
    [{ id, title: message.title, variant: message.variant ?? 'default', open: true, ...(message.description ? { description: message.description } : {}) }, ...toasts].slice(0, TOAST_LIMIT),
  );
  return id;
}

export function dismissToast(id: number) {
  emit(toasts.map((item) => (item.id === id ? { ...item, open: false } : item)));
  if (removalTimers.has(id)) return;
  removalTimers.set(
    id,
    setTimeout(() => {
      removalTimers.delete(id);
      emit(toasts.filter((item) => item.id !== id));
    }, TOAST_REMOVE_DELAY_MS),
  );
}

const subscribe = (listener: () => void) => {
  listeners.add(listener);
  return () => listeners.delete(listener);
};
export function useToasts() {
  return useSyncExternalStore(subscribe, () => toasts, () => EMPTY);
}
