import { createContext, type ReactNode, useCallback, useContext, useMemo, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { Icon, IconButton, type IconName } from "./icons";

export type ToastTone = "info" | "success" | "error" | "reminder" | "alert";

export interface ToastInput {
  message: string;
  tone?: ToastTone;
  /** ms; errors with an action stay until acted on or dismissed. */
  duration?: number;
  action?: { label: string; run(): void };
  /** A toast with the same key replaces the previous one instead of piling up. */
  key?: string;
}
interface ToastItem extends ToastInput {
  id: number;
}

interface ToastApi {
  show(toast: ToastInput): void;
  dismiss(key: string): void;
}

const ToastContext = createContext<ToastApi | null>(null);

const ICONS: Record<ToastTone, IconName> = {
  info: "message",
  success: "check",
  error: "alert",
  reminder: "bell",
  alert: "alert",
};

export function ToastProvider({ children }: { children: ReactNode }) {
  const { t } = useTranslation();
  const [toasts, setToasts] = useState<ToastItem[]>([]);
  const seq = useRef(0);
  const timers = useRef(new Map<number, ReturnType<typeof setTimeout>>());

  const remove = useCallback((id: number) => {
    setToasts((list) => list.filter((t) => t.id !== id));
    clearTimeout(timers.current.get(id));
    timers.current.delete(id);
  }, []);

  const show = useCallback(
    (input: ToastInput) => {
      const id = ++seq.current;
      setToasts((list) =>
        [...list.filter((t) => !input.key || t.key !== input.key), { ...input, id }].slice(-5),
      );
      const duration = input.duration ?? (input.tone === "error" && input.action ? 0 : 5000);
      if (duration > 0)
        timers.current.set(
          id,
          setTimeout(() => remove(id), duration),
        );
    },
    [remove],
  );

  const dismiss = useCallback((key: string) => setToasts((list) => list.filter((t) => t.key !== key)), []);
  const api = useMemo(() => ({ show, dismiss }), [show, dismiss]);

  return (
    <ToastContext.Provider value={api}>
      {children}
      <section className="toasts" aria-live="polite" aria-label={t("ui.toasts.label")}>
        {toasts.map((toast) => (
          <div key={toast.id} className={`toast toast-${toast.tone ?? "info"}`} role="status">
            <Icon name={ICONS[toast.tone ?? "info"]} size={16} />
            <span className="toast-message">{toast.message}</span>
            {toast.action && (
              <button
                type="button"
                className="toast-action"
                onClick={() => {
                  toast.action?.run();
                  remove(toast.id);
                }}
              >
                {toast.action.label}
              </button>
            )}
            <IconButton
              icon="x"
              size={14}
              className="small"
              label={t("ui.toasts.dismiss")}
              onClick={() => remove(toast.id)}
            />
          </div>
        ))}
      </section>
    </ToastContext.Provider>
  );
}

export function useToasts(): ToastApi {
  const api = useContext(ToastContext);
  if (!api) throw new Error("useToasts outside ToastProvider");
  return api;
}
