import { useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import { useTranslation } from "react-i18next";
import { useNavigate } from "react-router";
import type { Dashboard, Settings, Widget } from "../../contract/resources";
import { t } from "../i18n/i18n";
import { ApiError, api, describeError } from "../lib/api";
import { keys } from "../lib/queries";
import { Dialog } from "../ui/Dialog";
import { Field } from "../ui/fields";
import { useToasts } from "../ui/Toasts";

export function validateDashboardName(name: string): string | null {
  if (!name.trim()) return t("dashboard.validation.nameRequired");
  if (name.length > 100) return t("dashboard.validation.nameTooLong");
  return null;
}

export function useDashboardActions() {
  const client = useQueryClient();
  const navigate = useNavigate();
  const toasts = useToasts();
  return {
    async create(name: string): Promise<Dashboard> {
      const dashboard = await api.dashboards.create(name.trim());
      client.setQueryData<Dashboard[]>(keys.dashboards, (list) => [...(list ?? []), dashboard]);
      client.setQueryData<Widget[]>(keys.widgets(dashboard.id), []);
      navigate(`/d/${dashboard.id}`);
      return dashboard;
    },
    async rename(id: string, name: string): Promise<Dashboard> {
      const dashboard = await api.dashboards.rename(id, name.trim());
      client.setQueryData<Dashboard[]>(keys.dashboards, (list) =>
        list?.map((d) => (d.id === id ? dashboard : d)),
      );
      return dashboard;
    },
    async remove(id: string): Promise<void> {
      try {
        await api.dashboards.remove(id);
      } catch (error) {
        if (!(error instanceof ApiError && error.status === 404)) throw error;
      }
      client.setQueryData<Dashboard[]>(keys.dashboards, (list) => list?.filter((d) => d.id !== id));
      client.removeQueries({ queryKey: keys.widgets(id) });
      // The server cleared lastDashboardId if it pointed here; mirror that without a refetch.
      client.setQueryData<Settings>(keys.settings, (s) =>
        s && s.lastDashboardId === id ? { ...s, lastDashboardId: null } : s,
      );
      navigate("/", { replace: true });
      toasts.show({ tone: "success", message: t("dashboard.deleted") });
    },
  };
}

export function DashboardNameDialog({
  open,
  onClose,
  mode,
  dashboard,
}: {
  open: boolean;
  onClose(): void;
  mode: "create" | "rename";
  dashboard?: Dashboard;
}) {
  const { t } = useTranslation();
  const actions = useDashboardActions();
  const [name, setName] = useState(dashboard?.name ?? "");
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const problem = validateDashboardName(name);
    if (problem) {
      setError(problem);
      return;
    }
    setBusy(true);
    try {
      if (mode === "create") await actions.create(name);
      else if (dashboard) await actions.rename(dashboard.id, name);
      onClose();
    } catch (e) {
      // A refused name is said in our words, not in the server's English.
      setError(
        e instanceof ApiError && Object.keys(e.fieldErrors()).length
          ? t("dashboard.validation.nameRejected")
          : describeError(e),
      );
    } finally {
      setBusy(false);
    }
  };

  return (
    <Dialog
      open={open}
      onClose={onClose}
      size="sm"
      title={
        mode === "create" ? t("dashboard.nameDialog.createTitle") : t("dashboard.nameDialog.renameTitle")
      }
      description={mode === "create" ? t("dashboard.nameDialog.createDescription") : undefined}
    >
      <form onSubmit={submit}>
        <Field label={t("common.name")} error={error ?? undefined}>
          {(id, describedBy) => (
            <input
              id={id}
              value={name}
              maxLength={100}
              placeholder={t("dashboard.nameDialog.placeholder")}
              autoFocus
              data-autofocus
              // Renaming usually replaces the name: it starts selected, ready to be typed over.
              onFocus={(e) => e.currentTarget.select()}
              aria-invalid={error ? true : undefined}
              aria-describedby={describedBy}
              onChange={(e) => {
                setName(e.target.value);
                setError(null);
              }}
            />
          )}
        </Field>
        <div className="dialog-actions">
          <button type="button" className="button ghost" onClick={onClose}>
            {t("common.cancel")}
          </button>
          <button type="submit" className="button primary" disabled={busy}>
            {mode === "create"
              ? busy
                ? t("dashboard.nameDialog.creating")
                : t("dashboard.nameDialog.create")
              : busy
                ? t("common.saving")
                : t("dashboard.nameDialog.rename")}
          </button>
        </div>
      </form>
    </Dialog>
  );
}

/** What deleting takes with it, for no widgets, one, several, or an unknown number. */
export function deleteSentence(count: number | undefined): string {
  if (count === 0) return t("dashboard.delete.empty");
  if (count === undefined) return t("dashboard.delete.unknown");
  return t("dashboard.delete.widgets", { count });
}

export function DeleteDashboardDialog({
  open,
  onClose,
  dashboard,
}: {
  open: boolean;
  onClose(): void;
  dashboard: Dashboard;
}) {
  const { t } = useTranslation();
  const client = useQueryClient();
  const actions = useDashboardActions();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const count = client.getQueryData<Widget[]>(keys.widgets(dashboard.id))?.length;
  return (
    <Dialog
      open={open}
      onClose={onClose}
      size="sm"
      title={t("dashboard.delete.title", { name: dashboard.name })}
      description={deleteSentence(count)}
    >
      {error && (
        <p className="form-error" role="alert">
          {error}
        </p>
      )}
      <div className="dialog-actions">
        <button type="button" className="button ghost" onClick={onClose}>
          {t("dashboard.delete.keep")}
        </button>
        <button
          type="button"
          className="button danger"
          disabled={busy}
          onClick={async () => {
            setBusy(true);
            try {
              await actions.remove(dashboard.id);
              onClose();
            } catch (e) {
              setError(describeError(e));
            } finally {
              setBusy(false);
            }
          }}
        >
          {busy ? t("dashboard.delete.deleting") : t("dashboard.delete.confirm")}
        </button>
      </div>
    </Dialog>
  );
}
