// Toasts in the bottom-right corner, announced by a live region that exists from the first
// paint (so screen readers hear additions); errors are announced assertively.
import { CloseIcon } from "./icons.jsx";

const tones = {
  success: "border-emerald-200 bg-emerald-50 text-emerald-900",
  error: "border-red-200 bg-red-50 text-red-900",
  info: "border-ink-200 bg-white text-ink-900",
};

export function Toaster({ toasts, onDismiss }) {
  return (
    <section
      aria-label="Notifications"
      aria-live="polite"
      className="pointer-events-none fixed inset-x-4 bottom-4 z-50 flex flex-col items-end gap-2 sm:left-auto sm:right-6 sm:bottom-6 sm:w-96"
    >
      {toasts.map((toast) => (
        <div
          key={toast.id}
          role={toast.tone === "error" ? "alert" : "status"}
          data-toast={toast.tone}
          className={`pointer-events-auto flex w-full items-start gap-3 rounded-xl border px-4 py-3 text-sm shadow-lg transition duration-200 starting:translate-y-2 starting:opacity-0 ${tones[toast.tone]}`}
        >
          <div className="flex-1 leading-relaxed">
            <p>{toast.message}</p>
            {toast.detail ? <p className="mt-1 font-semibold">{toast.detail}</p> : null}
          </div>
          <button
            type="button"
            onClick={() => onDismiss(toast.id)}
            aria-label="Dismiss notification"
            className="-m-1 rounded-md p-1 opacity-70 hover:opacity-100 focus-visible:outline-2 focus-visible:outline-gold-600"
          >
            <CloseIcon className="h-4 w-4" />
          </button>
        </div>
      ))}
    </section>
  );
}
