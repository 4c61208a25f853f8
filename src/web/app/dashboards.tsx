import { useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import { useNavigate } from "react-router";
import type { Dashboard, Settings, Widget } from "../../contract/resources";
import { ApiError, api, describeError } from "../lib/api";
import { keys } from "../lib/queries";
import { Dialog } from "../ui/Dialog";
import { Field } from "../ui/fields";
import { useToasts } from "../ui/Toasts";

export function validateDashboardName(name: string): string | null {
  if (!name.trim()) return "Give the dashboard a name";
  if (name.length > 100) return "Keep it under 100 characters";
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
      toasts.show({ tone: "success", message: "Dashboard deleted" });
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
      setError(
        e instanceof ApiError ? (Object.values(e.fieldErrors())[0] ?? describeError(e)) : describeError(e),
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
      title={mode === "create" ? "New dashboard" : "Rename dashboard"}
      description={mode === "create" ? "A fresh canvas for a set of widgets: Work, Home, Travel…" : undefined}
    >
      <form onSubmit={submit}>
        <Field label="Name" error={error ?? undefined}>
          {(id, describedBy) => (
            <input
              id={id}
              value={name}
              maxLength={100}
              placeholder="Work"
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
            Cancel
          </button>
          <button type="submit" className="button primary" disabled={busy}>
            {mode === "create" ? (busy ? "Creating…" : "Create dashboard") : busy ? "Saving…" : "Rename"}
          </button>
        </div>
      </form>
    </Dialog>
  );
}

/** What deleting takes with it, for no widgets, one, several, or an unknown number. */
export function deleteSentence(count: number | undefined): string {
  if (count === 0) return "This deletes the dashboard. It has no widgets. It cannot be undone.";
  const what =
    count === undefined
      ? "all of its widgets, with their notes, todos and boards"
      : count === 1
        ? "its one widget, with whatever it holds"
        : `its ${count} widgets, with their notes, todos and boards`;
  return `This deletes the dashboard and ${what}. It cannot be undone.`;
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
      title={`Delete “${dashboard.name}”?`}
      description={deleteSentence(count)}
    >
      {error && (
        <p className="form-error" role="alert">
          {error}
        </p>
      )}
      <div className="dialog-actions">
        <button type="button" className="button ghost" onClick={onClose}>
          Keep it
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
          {busy ? "Deleting…" : "Delete dashboard"}
        </button>
      </div>
    </Dialog>
  );
}
