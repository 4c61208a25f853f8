import { useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import { useTranslation } from "react-i18next";
import { useNavigate } from "react-router";
import type { Dashboard, Settings, Widget } from "../../contract/resources";
import { t } from "../i18n/i18n";
import { ApiError, api, describeError } from "../lib/api";
import { removeFromList, replaceInList } from "../lib/list-cache";
import { ignoreGone } from "../lib/operators-api";
import { keys } from "../lib/queries";
import { useAction } from "../lib/use-action";
import { ConfirmDialog } from "../ui/ConfirmDialog";
import { Dialog } from "../ui/Dialog";
import { FormActions, TextField } from "../ui/fields";
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
      replaceInList(client, keys.dashboards, dashboard);
      return dashboard;
    },
    async remove(id: string): Promise<void> {
      await api.dashboards.remove(id).catch(ignoreGone);
      removeFromList(client, keys.dashboards, id);
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
  onClose,
  mode,
  dashboard,
}: {
  onClose(): void;
  mode: "create" | "rename";
  dashboard?: Dashboard;
}) {
  const { t } = useTranslation();
  const actions = useDashboardActions();
  const [name, setName] = useState(dashboard?.name ?? "");
  const save = useAction();

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const problem = validateDashboardName(name);
    if (problem) {
      save.setError(problem);
      return;
    }
    await save.run(
      async () => {
        if (mode === "create") await actions.create(name);
        else if (dashboard) await actions.rename(dashboard.id, name);
        onClose();
      },
      // A refused name is said in our words, not in the server's English.
      (e) =>
        e instanceof ApiError && Object.keys(e.fieldErrors()).length
          ? t("dashboard.validation.nameRejected")
          : describeError(e),
    );
  };

  return (
    <Dialog
      open
      onClose={onClose}
      size="sm"
      title={
        mode === "create" ? t("dashboard.nameDialog.createTitle") : t("dashboard.nameDialog.renameTitle")
      }
      description={mode === "create" ? t("dashboard.nameDialog.createDescription") : undefined}
    >
      <form onSubmit={submit}>
        <TextField
          label={t("common.name")}
          error={save.error}
          value={name}
          maxLength={100}
          placeholder={t("dashboard.nameDialog.placeholder")}
          autoFocus
          data-autofocus
          // Renaming usually replaces the name: it starts selected, ready to be typed over.
          onFocus={(e) => e.currentTarget.select()}
          onChange={(value) => {
            setName(value);
            save.setError(null);
          }}
        />
        <FormActions
          onCancel={onClose}
          busy={save.busy}
          label={mode === "create" ? t("dashboard.nameDialog.create") : t("dashboard.nameDialog.rename")}
          busyLabel={mode === "create" ? t("dashboard.nameDialog.creating") : t("common.saving")}
        />
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

export function DeleteDashboardDialog({ onClose, dashboard }: { onClose(): void; dashboard: Dashboard }) {
  const { t } = useTranslation();
  const client = useQueryClient();
  const actions = useDashboardActions();
  const count = client.getQueryData<Widget[]>(keys.widgets(dashboard.id))?.length;
  return (
    <ConfirmDialog
      title={t("dashboard.delete.title", { name: dashboard.name })}
      description={deleteSentence(count)}
      confirmLabel={t("dashboard.delete.confirm")}
      busyLabel={t("dashboard.delete.deleting")}
      cancelLabel={t("dashboard.delete.keep")}
      onClose={onClose}
      onConfirm={() => actions.remove(dashboard.id)}
    />
  );
}
