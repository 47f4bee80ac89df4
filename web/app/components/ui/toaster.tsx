import { Toast } from 'radix-ui';
import { dismissToast, useToasts } from './toast-store';

/**
 * Radix toasts: 5000 ms, swipe right past 50 px to dismiss, F8 jumps to the region.
 * Mounted once in the root layout, after hydration. At the top; from the md breakpoint in
 * the left half, which the guide form never reaches (decision 031).
 */
export default function Toaster() {
  const toasts = useToasts();
  return (
    <Toast.Provider duration={5000} swipeDirection="right" swipeThreshold={50} label="Notifica">
      {toasts.map((item) => (
        <Toast.Root
          key={item.id}
          open={item.open}
          onOpenChange={(open) => {
            if (!open) dismissToast(item.id);
          }}
          className={`toast-root pointer-events-auto relative flex w-full items-start gap-3 rounded-lg border p-4 pr-8 shadow-lg ${
            item.variant === 'destructive' ? 'border-red-700 bg-red-700 text-white' : 'border-slate-200 bg-white text-slate-900'
          }`}
        >
          <div className="grid gap-1">
            <Toast.Title className="text-sm font-semibold">{item.title}</Toast.Title>
            {item.description ? <Toast.Description className="text-sm opacity-90">{item.description}</Toast.Description> : null}
          </div>
          <Toast.Close aria-label="Chiudi" className="absolute right-2 top-2 rounded p-1 text-current opacity-80 hover:opacity-100">
            <span aria-hidden="true">×</span>
          </Toast.Close>
        </Toast.Root>
      ))}
      <Toast.Viewport
        label="Notifiche ({hotkey})"
        className="fixed left-0 top-0 z-[100] flex max-h-screen w-full flex-col-reverse p-4 md:max-w-[min(420px,50vw)]"
      />
    </Toast.Provider>
  );
}
