import type { ReactNode } from "react";
import { describeError } from "../lib/api";
import { useAction } from "../lib/use-action";
import { Dialog } from "./Dialog";
import { FormActions } from "./fields";

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
  const action = useAction();
  return (
    <Dialog open onClose={onClose} size="sm" title={title} description={description}>
      {children}
      <FormActions
        tone="danger"
        label={confirmLabel}
        busyLabel={busyLabel}
        busy={action.busy}
        onCancel={onClose}
        cancelLabel={cancelLabel}
        focusCancel
        error={action.error}
        onClick={async () => {
          if (await action.run(onConfirm, describe)) onClose();
        }}
      />
    </Dialog>
  );
}
