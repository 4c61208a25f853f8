import { useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import { useTranslation } from "react-i18next";
import { isLookAccent, isLookBackground, type LookValue } from "../../contract/look";
import type { Dashboard } from "../../contract/resources";
import { api } from "../lib/api";
import { replaceInList } from "../lib/list-cache";
import { lookAttributes } from "../lib/look";
import { keys } from "../lib/queries";
import { useAction } from "../lib/use-action";
import { Dialog } from "../ui/Dialog";
import { Field, FormActions, FormError, TextField } from "../ui/fields";
import { useToasts } from "../ui/Toasts";

/** `#rgb` as `#rrggbb`, which is all `<input type="color">` takes. */
function sixDigits(accent: string): string {
  return accent.length === 4
    ? `#${accent
        .slice(1)
        .split("")
        .map((d) => d + d)
        .join("")}`.toLowerCase()
    : accent.toLowerCase();
}

/** What the form's two fields ask for, or which field is wrong. */
export function lookFromFields(accent: string, background: string) {
  const a = accent.trim();
  const b = background.trim();
  const errors: { accent?: true; background?: true } = {};
  if (a && !isLookAccent(a)) errors.accent = true;
  if (b && !isLookBackground(b)) errors.background = true;
  const look: LookValue = {};
  if (a) look.accent = a;
  if (b) look.background = b;
  return { look, errors };
}

/**
 * A dashboard's personal look (DESIGN section 13): an accent colour and a background image URL,
 * shown in a preview before it is saved, on this dashboard and on its public page.
 */
export function DashboardLookDialog({ dashboard, onClose }: { dashboard: Dashboard; onClose(): void }) {
  const { t } = useTranslation();
  const client = useQueryClient();
  const toasts = useToasts();
  const [accent, setAccent] = useState(dashboard.look?.accent ?? "");
  const [background, setBackground] = useState(dashboard.look?.background ?? "");
  const [shown, setShown] = useState<{ accent?: true; background?: true }>({});
  const save = useAction();
  const { look, errors } = lookFromFields(accent, background);
  const preview = lookAttributes(look);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (errors.accent || errors.background) {
      setShown(errors);
      return;
    }
    await save.run(async () => {
      const saved = await api.dashboards.setLook(dashboard.id, dashboard.name, look);
      replaceInList(client, keys.dashboards, saved);
      toasts.show({ tone: "success", message: t("look.saved") });
      onClose();
    });
  };

  return (
    <Dialog
      open
      onClose={onClose}
      size="sm"
      title={t("look.title", { name: dashboard.name })}
      description={t("look.description")}
    >
      <form onSubmit={submit} noValidate>
        <FormError message={save.error} />
        <Field
          label={t("look.accent")}
          hint={t("look.accentHint")}
          error={shown.accent ? t("look.accentInvalid") : undefined}
        >
          {(id, describedBy) => (
            <div className="look-accent-row">
              <input
                type="color"
                aria-label={t("look.accentPicker")}
                value={look.accent && !errors.accent ? sixDigits(look.accent) : "#5b5bd6"}
                onChange={(e) => {
                  setAccent(e.target.value);
                  setShown((s) => ({ ...s, accent: undefined }));
                }}
              />
              <input
                id={id}
                value={accent}
                maxLength={7}
                placeholder={t("look.accentPlaceholder")}
                spellCheck={false}
                autoComplete="off"
                data-autofocus
                aria-invalid={shown.accent ? true : undefined}
                aria-describedby={describedBy}
                onChange={(e) => {
                  setAccent(e.target.value);
                  setShown((s) => ({ ...s, accent: undefined }));
                }}
              />
            </div>
          )}
        </Field>
        <TextField
          label={t("look.background")}
          hint={t("look.backgroundHint")}
          error={shown.background ? t("look.backgroundInvalid") : undefined}
          type="url"
          inputMode="url"
          value={background}
          placeholder={t("look.backgroundPlaceholder")}
          spellCheck={false}
          autoComplete="off"
          onChange={(value) => {
            setBackground(value);
            setShown((s) => ({ ...s, background: undefined }));
          }}
        />
        <p className="field-label" id="look-preview-label">
          {t("look.preview")}
        </p>
        <div
          className="look-preview"
          role="img"
          aria-labelledby="look-preview-label"
          style={preview.style}
          data-look-accent={preview["data-look-accent"]}
          data-testid="look-preview"
        >
          <div className="look-preview-card">
            <span>{t("look.previewWidget")}</span>
            <span className="look-preview-swatch">{t("look.previewButton")}</span>
          </div>
        </div>
        <FormActions
          onCancel={onClose}
          busy={save.busy}
          label={t("common.save")}
          busyLabel={t("common.saving")}
        >
          <button
            type="button"
            className="button ghost"
            disabled={!accent && !background}
            onClick={() => {
              setAccent("");
              setBackground("");
              setShown({});
            }}
          >
            {t("look.reset")}
          </button>
          <div className="toolbar-spacer" />
        </FormActions>
      </form>
    </Dialog>
  );
}
