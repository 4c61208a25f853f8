import { type ReactNode, useEffect, useId, useLayoutEffect, useRef } from "react";
import { useTranslation } from "react-i18next";
import { IconButton } from "./icons";

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
 * The browser does not always give the focus back when a modal closes (not when the element is
 * removed, nor when React re-renders its content away first): the opener gets it back, unless
 * the app has already put it somewhere on purpose.
 */
function returnFocus(dialog: HTMLDialogElement, opener: { current: HTMLElement | null }) {
  const target = opener.current;
  opener.current = null;
  const active = document.activeElement;
  const lost = !active || active === document.body || dialog.contains(active);
  if (target?.isConnected && lost) target.focus({ preventScroll: true });
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
  /** The control that had the focus when the dialog opened: it gets it back on close. */
  const opener = useRef<HTMLElement | null>(null);
  const titleId = useId();
  const descriptionId = useId();

  // A layout effect: the dialog opens and closes in the same commit as its `open` prop, so code
  // that runs after the change (focusing something behind it) finds the page no longer inert.
  useLayoutEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) {
      opener.current = document.activeElement instanceof HTMLElement ? document.activeElement : null;
      dialog.showModal();
      // The browser focuses the first focusable element (the close button); a dialog's own
      // choice (marked data-autofocus: the field to type in, the selected option) wins.
      dialog.querySelector<HTMLElement>("[data-autofocus]")?.focus();
    }
    if (!open && dialog.open) {
      dialog.close();
      returnFocus(dialog, opener);
    }
  }, [open]);

  // A dialog removed while open (its owner stopped rendering it) returns the focus as well.
  useEffect(() => {
    const dialog = ref.current;
    return () => {
      if (dialog?.open) returnFocus(dialog, opener);
    };
  }, []);

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
          <div className="dialog-header">
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
            {dismissible && <IconButton icon="x" label={t("common.close")} onClick={onClose} />}
          </div>
          <div className="dialog-body">{children}</div>
          {footer && <div className="dialog-footer">{footer}</div>}
        </div>
      )}
    </dialog>
  );
}
