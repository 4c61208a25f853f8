import { type ReactNode, useState } from "react";
import { useTranslation } from "react-i18next";
import { describeError } from "../lib/api";
import { Dialog } from "./Dialog";

/**
 * "Are you sure?" for something that cannot be undone. The action's failure stays in the
 * dialog (with the server's reason) rather than closing it.
 */
export function ConfirmDialog({
  title,
  description,
  confirmLabel,
  busyLabel,
  cancelLabel,
  onConfirm,
  onClose,
  describe = describeError,
  children,
}: {
  title: string;
  description: ReactNode;
  confirmLabel: string;
  busyLabel: string;
  cancelLabel?: string;
  onConfirm(): Promise<unknown>;
  onClose(): void;
  describe?(error: unknown): string;
  children?: ReactNode;
}) {
  const { t } = useTranslation();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  return (
    <Dialog open onClose={onClose} size="sm" title={title} description={description}>
      {children}
      {error && (
        <p className="form-error" role="alert">
          {error}
        </p>
      )}
      <div className="dialog-actions">
        <button type="button" className="button ghost" onClick={onClose} data-autofocus>
          {cancelLabel ?? t("common.cancel")}
        </button>
        <button
          type="button"
          className="button danger"
          disabled={busy}
          onClick={async () => {
            setBusy(true);
            setError(null);
            try {
              await onConfirm();
              onClose();
            } catch (e) {
              setError(describe(e));
              setBusy(false);
            }
          }}
        >
          {busy ? busyLabel : confirmLabel}
        </button>
      </div>
    </Dialog>
  );
}
