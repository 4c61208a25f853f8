import { type ReactNode, useEffect, useId, useRef } from "react";
import { useTranslation } from "react-i18next";
import { Icon } from "./icons";

interface DialogProps {
  open: boolean;
  onClose(): void;
  title: ReactNode;
  description?: ReactNode;
  children: ReactNode;
  footer?: ReactNode;
  size?: "sm" | "md" | "lg";
  /** Onboarding must be finished, not dismissed by a stray Escape. */
  dismissible?: boolean;
  className?: string;
}

/**
 * A modal on the native <dialog>: the browser traps focus, renders it in the top layer, restores
 * focus on close and handles Escape, so little code is needed for a fully keyboard-operable modal.
 */
export function Dialog({
  open,
  onClose,
  title,
  description,
  children,
  footer,
  size = "md",
  dismissible = true,
  className = "",
}: DialogProps) {
  const { t } = useTranslation();
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const descriptionId = useId();

  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) {
      dialog.showModal();
      // The browser focuses the first focusable element (the close button); a dialog's own
      // choice (marked data-autofocus: the field to type in, the selected option) wins.
      dialog.querySelector<HTMLElement>("[data-autofocus]")?.focus();
    }
    if (!open && dialog.open) dialog.close();
  }, [open]);

  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    const onCancel = (event: Event) => {
      event.preventDefault();
      if (dismissible) onClose();
    };
    dialog.addEventListener("cancel", onCancel);
    return () => dialog.removeEventListener("cancel", onCancel);
  }, [dismissible, onClose]);

  return (
    <dialog
      ref={ref}
      className={`dialog dialog-${size} ${className}`}
      aria-labelledby={titleId}
      aria-describedby={description ? descriptionId : undefined}
      onMouseDown={(event) => {
        // A click on the backdrop (the dialog element itself, outside its panel) closes it.
        if (dismissible && event.target === event.currentTarget) onClose();
      }}
    >
      {open && (
        <div className="dialog-panel">
          <header className="dialog-header">
            <div>
              <h2 id={titleId} className="dialog-title">
                {title}
              </h2>
              {description && (
                <p id={descriptionId} className="dialog-description">
                  {description}
                </p>
              )}
            </div>
            {dismissible && (
              <button type="button" className="icon-button" onClick={onClose} aria-label={t("common.close")}>
                <Icon name="x" />
              </button>
            )}
          </header>
          <div className="dialog-body">{children}</div>
          {footer && <footer className="dialog-footer">{footer}</footer>}
        </div>
      )}
    </dialog>
  );
}
