import { type ReactNode, useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { Icon } from "./icons";

/**
 * A read-only value with a Copy button. The outcome is announced (aria-live) for screen
 * readers; without clipboard access the value is selected for Ctrl+C instead.
 */
export function CopyField({ value, label, mono = false }: { value: string; label: string; mono?: boolean }) {
  const { t } = useTranslation();
  const input = useRef<HTMLInputElement>(null);
  const [status, setStatus] = useState<"" | "copied" | "select">("");
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);

  const copy = async () => {
    clearTimeout(timer.current);
    try {
      await navigator.clipboard.writeText(value);
      setStatus("copied");
    } catch {
      input.current?.focus();
      input.current?.select();
      setStatus("select");
    }
    timer.current = setTimeout(() => setStatus(""), 4000);
  };

  return (
    <div className="copy-field">
      <div className="copy-row">
        <input
          ref={input}
          aria-label={label}
          className={mono ? "copy-input mono" : "copy-input"}
          value={value}
          readOnly
          spellCheck={false}
          onFocus={(e) => e.target.select()}
        />
        <button
          type="button"
          className="button small"
          aria-label={t("ui.copy.named", { label })}
          onClick={() => void copy()}
        >
          <Icon name={status === "copied" ? "check" : "copy"} size={14} />
          {status === "copied" ? t("ui.copy.copied") : t("common.copy")}
        </button>
      </div>
      <p className="copy-status" aria-live="polite">
        {status === "copied" ? t("ui.copy.done") : status === "select" ? t("ui.copy.selected") : ""}
      </p>
    </div>
  );
}

/** A secret just made (a key, an invite link), told once: copy it now, then Done. */
export function SecretBox({
  titleId,
  title,
  children,
  value,
  label,
  onDone,
}: {
  titleId: string;
  title: string;
  /** What the secret is for, and that it is not shown again. */
  children: ReactNode;
  value: string;
  label: string;
  onDone(): void;
}) {
  const { t } = useTranslation();
  return (
    <section className="secret-box" aria-labelledby={titleId}>
      <h3 id={titleId} className="section-title">
        <Icon name="check" size={16} /> {title}
      </h3>
      <p>{children}</p>
      <CopyField value={value} label={label} mono />
      <div className="dialog-actions start">
        <button type="button" className="button" onClick={onDone}>
          {t("common.done")}
        </button>
      </div>
    </section>
  );
}
