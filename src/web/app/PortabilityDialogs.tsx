import { useQuery, useQueryClient } from "@tanstack/react-query";
import { type DragEvent, useState } from "react";
import { useNavigate } from "react-router";
import type { DashboardDocument } from "../../contract/dashboard-document";
import type { Dashboard } from "../../contract/resources";
import { ApiError, api, type DashboardWithWidgets, describeError } from "../lib/api";
import { keys } from "../lib/queries";
import { Dialog } from "../ui/Dialog";
import { Icon } from "../ui/icons";
import { useToasts } from "../ui/Toasts";
import { definitionFor } from "../widgets/registry";
import { describeDiff, diffVersions } from "./version-diff";

/** A new dashboard from an import or a copy: into the caches, then opened. */
function useOpenCreated() {
  const client = useQueryClient();
  const navigate = useNavigate();
  return ({ dashboard, widgets }: DashboardWithWidgets) => {
    client.setQueryData<Dashboard[]>(keys.dashboards, (list) => (list ? [...list, dashboard] : [dashboard]));
    client.setQueryData(keys.widgets(dashboard.id), widgets);
    navigate(`/d/${dashboard.id}`);
  };
}

/** "3 Clocks, 1 Weather": what a document holds, by the names the picker shows. */
function widgetSummary(document: DashboardDocument): string {
  const counts = new Map<string, number>();
  for (const w of document.widgets) {
    const name = definitionFor(w.widgetType).name;
    counts.set(name, (counts.get(name) ?? 0) + 1);
  }
  if (counts.size === 0) return "no widgets";
  return [...counts].map(([name, n]) => `${n} ${name}`).join(", ");
}

/** The server's list of problems, shortened to what fits a dialog. */
function problemLines(error: unknown): string[] {
  if (!(error instanceof ApiError)) return [];
  return (error.problem?.errors ?? []).slice(0, 5).map((e) => `${e.path}: ${e.message}`);
}

/** Reads a dropped or picked file as a document, or says why it is not one. */
async function readDocumentFile(file: File): Promise<{ document?: DashboardDocument; error?: string }> {
  if (file.size > 5 * 1024 * 1024)
    return { error: "This file is larger than 5 MB, more than any dashboard." };
  try {
    const value = JSON.parse(await file.text()) as DashboardDocument;
    if (value?.format !== "tessera.dashboard" || !Array.isArray(value.widgets))
      return { error: "This is not a Tessera dashboard file (.tessera.json)." };
    return { document: value };
  } catch {
    return { error: "This file is not JSON; a Tessera dashboard file ends in .tessera.json." };
  }
}

/**
 * Import: pick or drop a .tessera.json, see what it holds (name, widgets by type), then confirm.
 * The server checks everything again and creates nothing unless all of it is valid.
 */
export function ImportDialog({ onClose, initialFile }: { onClose(): void; initialFile?: File }) {
  const openCreated = useOpenCreated();
  const [document, setDocument] = useState<DashboardDocument | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [details, setDetails] = useState<string[]>([]);
  const [busy, setBusy] = useState(false);
  const [over, setOver] = useState(false);
  const [loaded, setLoaded] = useState(false);

  const take = async (file: File | undefined) => {
    if (!file) return;
    const read = await readDocumentFile(file);
    setDocument(read.document ?? null);
    setError(read.error ?? null);
    setDetails([]);
  };
  if (initialFile && !loaded) {
    setLoaded(true);
    void take(initialFile);
  }
  const drop = (event: DragEvent) => {
    event.preventDefault();
    setOver(false);
    void take(event.dataTransfer.files[0]);
  };

  return (
    <Dialog
      open
      onClose={onClose}
      size="sm"
      title="Import a dashboard"
      description="From a .tessera.json file exported from Tessera."
    >
      <label
        className={`drop-zone${over ? " is-over" : ""}`}
        onDragOver={(e) => {
          e.preventDefault();
          setOver(true);
        }}
        onDragLeave={() => setOver(false)}
        onDrop={drop}
      >
        <Icon name="download" size={20} />
        <span>Drop the file here, or choose it</span>
        <input
          type="file"
          accept=".json,application/json"
          aria-label="Dashboard file"
          onChange={(e) => void take(e.target.files?.[0])}
        />
      </label>
      {error && (
        <div className="form-error" role="alert">
          <p>{error}</p>
          {details.length > 0 && (
            <ul className="problem-list">
              {details.map((line) => (
                <li key={line}>{line}</li>
              ))}
            </ul>
          )}
        </div>
      )}
      {document && (
        <section className="import-preview" aria-label="What the file holds">
          <strong>{document.dashboard?.name}</strong>
          <span className="muted">
            {document.widgets.length} widget{document.widgets.length === 1 ? "" : "s"}:{" "}
            {widgetSummary(document)}
          </span>
        </section>
      )}
      <div className="dialog-actions">
        <button type="button" className="button ghost" onClick={onClose}>
          Cancel
        </button>
        <button
          type="button"
          className="button primary"
          disabled={!document || busy}
          onClick={async () => {
            setBusy(true);
            try {
              openCreated(await api.dashboards.import(document));
              onClose();
            } catch (e) {
              setError(describeError(e));
              setDetails(problemLines(e));
            } finally {
              setBusy(false);
            }
          }}
        >
          {busy ? "Importing…" : "Import dashboard"}
        </button>
      </div>
    </Dialog>
  );
}

/** Copies the dashboard with its widgets and opens the copy. */
export function useDuplicate() {
  const openCreated = useOpenCreated();
  const toasts = useToasts();
  return async (dashboard: Dashboard) => {
    try {
      openCreated(await api.dashboards.duplicate(dashboard.id));
      toasts.show({ message: `Copied “${dashboard.name}”.`, tone: "success" });
    } catch (e) {
      toasts.show({ message: describeError(e), tone: "error" });
    }
  };
}

const when = (iso: string) =>
  new Date(iso).toLocaleString(undefined, { dateStyle: "medium", timeStyle: "short" });

/**
 * The dashboard's versions, newest first. Picking one shows what it holds and what changed from
 * the one before; restoring asks first, and the toast after it offers to undo.
 */
export function HistoryDialog({ dashboard, onClose }: { dashboard: Dashboard; onClose(): void }) {
  const client = useQueryClient();
  const toasts = useToasts();
  const versions = useQuery({
    queryKey: ["versions", dashboard.id],
    queryFn: () => api.dashboards.versions(dashboard.id),
  });
  const list = versions.data ?? [];
  const [picked, setPicked] = useState<string | null>(null);
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);
  const index = list.findIndex((v) => v.id === picked);
  const previousId = index >= 0 ? list[index + 1]?.id : undefined;
  const preview = useQuery({
    queryKey: ["version", picked, previousId],
    enabled: picked !== null,
    queryFn: async () => {
      const [doc, before] = await Promise.all([
        api.dashboards.version(picked!),
        previousId ? api.dashboards.version(previousId) : Promise.resolve(null),
      ]);
      return { doc, before };
    },
  });

  const restore = async (versionId: string, announce = true) => {
    setBusy(true);
    try {
      const restored = await api.dashboards.restore(dashboard.id, versionId);
      client.setQueryData(keys.widgets(dashboard.id), restored.widgets);
      const fresh = await api.dashboards.versions(dashboard.id);
      client.setQueryData(["versions", dashboard.id], fresh);
      setConfirming(false);
      setPicked(null);
      // The version before the restore's own is the state it replaced.
      const undoTo = fresh[1]?.id;
      // Back to the dashboard, where the restored widgets and the toast's Undo are.
      if (announce) onClose();
      if (announce)
        toasts.show({
          message: `Restored “${dashboard.name}” as it was.`,
          tone: "success",
          duration: 10_000,
          action: undoTo ? { label: "Undo", run: () => void restore(undoTo, false) } : undefined,
        });
    } catch (e) {
      toasts.show({ message: describeError(e), tone: "error" });
    } finally {
      setBusy(false);
    }
  };

  return (
    <Dialog
      open
      onClose={onClose}
      title={`History of “${dashboard.name}”`}
      description="Changes within a minute are one version; the newest 50 are kept."
    >
      {versions.isError && <p className="form-error">{describeError(versions.error)}</p>}
      <div className="history">
        <ol className="history-list" aria-label="Versions">
          {list.map((v, i) => (
            <li key={v.id}>
              <button
                type="button"
                className={`history-item${v.id === picked ? " is-current" : ""}`}
                aria-pressed={v.id === picked}
                onClick={() => {
                  setPicked(v.id);
                  setConfirming(false);
                }}
              >
                <span>{when(v.updatedAt)}</span>
                <span className="muted">
                  {i === 0 ? "Now · " : ""}
                  {v.widgetCount} widget{v.widgetCount === 1 ? "" : "s"}
                </span>
              </button>
            </li>
          ))}
        </ol>
        <section className="history-preview" aria-live="polite">
          {!picked && <p className="muted">Pick a version to see it.</p>}
          {picked && preview.data && (
            <>
              <p>
                <strong>{widgetSummary(preview.data.doc)}</strong>
              </p>
              <p className="muted">
                Compared with the version before:{" "}
                {describeDiff(diffVersions(preview.data.before, preview.data.doc))}
              </p>
              {index > 0 &&
                (confirming ? (
                  <fieldset className="history-confirm" aria-label="Confirm restore">
                    <p>Put the widgets back as they were then? You can undo it.</p>
                    <button type="button" className="button ghost" onClick={() => setConfirming(false)}>
                      Cancel
                    </button>
                    <button
                      type="button"
                      className="button primary"
                      disabled={busy}
                      onClick={() => void restore(picked)}
                    >
                      {busy ? "Restoring…" : "Restore"}
                    </button>
                  </fieldset>
                ) : (
                  <button type="button" className="button" onClick={() => setConfirming(true)}>
                    <Icon name="undo" size={15} /> Restore this version…
                  </button>
                ))}
            </>
          )}
        </section>
      </div>
    </Dialog>
  );
}
