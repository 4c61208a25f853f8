import { useQuery, useQueryClient } from "@tanstack/react-query";
import { type DragEvent, useState } from "react";
import { useTranslation } from "react-i18next";
import { useNavigate } from "react-router";
import type { DashboardDocument } from "../../contract/dashboard-document";
import type { Dashboard } from "../../contract/resources";
import { WIDGET_TYPES } from "../../widgets/index";
import { t } from "../i18n/i18n";
import { useLocale } from "../i18n/use-locale";
import { ApiError, api, type DashboardWithWidgets, describeError } from "../lib/api";
import { keys } from "../lib/queries";
import { exactTime } from "../lib/relative-time";
import { Dialog } from "../ui/Dialog";
import { FormActions } from "../ui/fields";
import { Icon } from "../ui/icons";
import { useToasts } from "../ui/Toasts";
import { definitionFor } from "../widget-kit/registry";
import { useDashboardCommands } from "./commands";
import { restoreVersion } from "./history";
import { describeDiff, diffVersions } from "./version-diff";
import { widgetName } from "./widget-name";

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
    const name = widgetName(definitionFor(w.widgetType));
    counts.set(name, (counts.get(name) ?? 0) + 1);
  }
  if (counts.size === 0) return t("portability.noWidgets");
  return [...counts].map(([name, n]) => `${n} ${name}`).join(", ");
}

const WIDGET_TYPE_AT = /^\/widgets\/(\d+)\/widgetType$/;

/** The widget type at `index` of the document when this Tessera has no such type, else null. */
function unknownTypeAt(document: DashboardDocument | null, index: number): string | null {
  const type: unknown = document?.widgets[index]?.widgetType;
  return typeof type === "string" && !(WIDGET_TYPES as readonly string[]).includes(type) ? type : null;
}

/** One problem at `path` of `document`, in the reader's language where we know what it is. */
function problemLine(path: string, document: DashboardDocument | null): string {
  const index = WIDGET_TYPE_AT.exec(path)?.[1];
  const type = index === undefined ? null : unknownTypeAt(document, Number(index));
  return type === null
    ? path
    : t("portability.import.unknownType", { type, path, known: WIDGET_TYPES.join(", ") });
}

/**
 * Where the server found problems, shortened to what fits a dialog. Its messages are English, so
 * they are not shown: a widget type this Tessera lacks is named from the file itself, with the
 * types there are; any other problem by its place (under the localized sentence of its code).
 */
export function problemLines(error: unknown, document: DashboardDocument | null): string[] {
  if (!(error instanceof ApiError)) return [];
  const paths = [...new Set((error.problem?.errors ?? []).map((e) => e.path))].slice(0, 5);
  return paths.map((path) => problemLine(path, document));
}

/** 1-based line and column of a character offset, as an editor shows them. */
function lineAndColumn(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, offset).split("\n");
  return { line: before.length, column: (before.at(-1)?.length ?? 0) + 1 };
}

/**
 * Why text that opens like JSON does not parse, with where: cut off (it ends first, as a download
 * stopped early does), or damaged at a place. The parser's message differs per browser; the place
 * is read from whichever form it takes.
 */
function parseFailure(text: string, error: unknown): string {
  const message = error instanceof Error ? error.message : "";
  const trimmed = text.trimEnd();
  const at = /position (\d+)/.exec(message);
  const spelled = /line (\d+) column (\d+)/.exec(message);
  const offset = at ? Number(at[1]) : null;
  const endsEarly =
    /end of (JSON input|data)|unterminated|EOF/i.test(message) ||
    (offset !== null && offset >= trimmed.length);
  if (endsEarly) return t("portability.import.cutOff", lineAndColumn(trimmed, trimmed.length));
  const place = spelled
    ? { line: Number(spelled[1]), column: Number(spelled[2]) }
    : offset !== null
      ? lineAndColumn(text, offset)
      : null;
  return place ? t("portability.import.damaged", place) : t("portability.import.damagedSomewhere");
}

/**
 * A file's text as a document, or why it is not one: not JSON at all, JSON cut off or damaged,
 * JSON of something else, or a dashboard holding widget types this Tessera does not have.
 */
export function readDocumentText(text: string): {
  document?: DashboardDocument;
  error?: string;
  details?: string[];
} {
  // Editors on Windows may save one; File.text() drops it, a string handed in may not have.
  const body = text.replace(/^\uFEFF/, "");
  let value: DashboardDocument;
  try {
    value = JSON.parse(body) as DashboardDocument;
  } catch (error) {
    // White space may come first; anything else than an object or array means this never was JSON.
    const opensLikeJson = /^\s*[{[]/.test(body);
    return { error: opensLikeJson ? parseFailure(body, error) : t("portability.import.notJson") };
  }
  if (value?.format !== "tessera.dashboard" || !Array.isArray(value.widgets))
    return { error: t("portability.import.notDashboard") };
  // Said before the upload, in the words the server's refusal would get (problemLines).
  const unknown = value.widgets.flatMap((_, index) =>
    unknownTypeAt(value, index) === null ? [] : [`/widgets/${index}/widgetType`],
  );
  if (unknown.length > 0)
    return {
      error: t("portability.import.unknownTypes", { count: unknown.length }),
      details: unknown.slice(0, 5).map((path) => problemLine(path, value)),
    };
  return { document: value };
}

/** Reads a dropped or picked file as a document, or says why it is not one. */
async function readDocumentFile(
  file: File,
): Promise<{ document?: DashboardDocument; error?: string; details?: string[] }> {
  if (file.size > 5 * 1024 * 1024) return { error: t("portability.import.tooLarge") };
  return readDocumentText(await file.text());
}

/**
 * Import: pick or drop a .tessera.json, see what it holds (name, widgets by type), then confirm.
 * The server checks everything again and creates nothing unless all of it is valid.
 */
export function ImportDialog({ onClose, initialFile }: { onClose(): void; initialFile?: File }) {
  const { t } = useTranslation();
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
    setDetails(read.details ?? []);
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
      title={t("portability.import.title")}
      description={t("portability.import.description")}
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
        <span>{t("portability.import.drop")}</span>
        <input
          type="file"
          accept=".json,application/json"
          aria-label={t("portability.import.file")}
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
        <section className="import-preview" aria-label={t("portability.import.preview")}>
          <strong>{document.dashboard?.name}</strong>
          <span className="muted">
            {t("portability.import.holds", {
              count: document.widgets.length,
              summary: widgetSummary(document),
            })}
          </span>
        </section>
      )}
      <FormActions
        onCancel={onClose}
        label={t("portability.import.confirm")}
        busyLabel={t("portability.import.importing")}
        busy={busy}
        disabled={!document}
        onClick={async () => {
          setBusy(true);
          try {
            openCreated(await api.dashboards.import(document));
            onClose();
          } catch (e) {
            setError(describeError(e));
            setDetails(problemLines(e, document));
          } finally {
            setBusy(false);
          }
        }}
      />
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
      toasts.show({ message: t("portability.copied", { name: dashboard.name }), tone: "success" });
    } catch (e) {
      toasts.show({ message: describeError(e), tone: "error" });
    }
  };
}

/**
 * The dashboard's versions, newest first. Picking one shows what it holds and what changed from
 * the one before; restoring asks first, and the toast after it offers to undo.
 */
export function HistoryDialog({ dashboard, onClose }: { dashboard: Dashboard; onClose(): void }) {
  const { t } = useTranslation();
  const locale = useLocale();
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

  const commands = useDashboardCommands();
  const restore = async (versionId: string) => {
    setBusy(true);
    try {
      // The dashboard on screen restores it, so that its toolbar's Undo, like the toast's, can take
      // it back (DashboardView); without it on screen, only the toast can.
      if (!(await commands.current?.restoreVersion?.(dashboard.id, versionId))) {
        const undoTo = await restoreVersion(client, dashboard.id, versionId);
        const undo = () =>
          restoreVersion(client, dashboard.id, undoTo!).catch((e: unknown) =>
            toasts.show({ message: describeError(e), tone: "error" }),
          );
        toasts.show({
          message: t("portability.history.restored", { name: dashboard.name }),
          tone: "success",
          duration: 10_000,
          action: undoTo ? { label: t("dashboard.undo"), run: () => void undo() } : undefined,
        });
      }
      setConfirming(false);
      setPicked(null);
      // Back to the dashboard, where the restored widgets and the Undo are.
      onClose();
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
      title={t("portability.history.title", { name: dashboard.name })}
      description={t("portability.history.description")}
    >
      {versions.isError && <p className="form-error">{describeError(versions.error)}</p>}
      <div className="history">
        <ol className="history-list" aria-label={t("portability.history.versions")}>
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
                <span>{exactTime(v.updatedAt, locale)}</span>
                <span className="muted">
                  {i === 0
                    ? t("portability.history.nowWidgets", { count: v.widgetCount })
                    : t("portability.widgetCount", { count: v.widgetCount })}
                  {v.by && ` · ${t("portability.history.by", { name: v.by.name })}`}
                </span>
              </button>
            </li>
          ))}
        </ol>
        <section className="history-preview" aria-live="polite">
          {!picked && <p className="muted">{t("portability.history.pick")}</p>}
          {picked && preview.data && (
            <>
              <p>
                <strong>{widgetSummary(preview.data.doc)}</strong>
              </p>
              <p className="muted">
                {t("portability.history.compared", {
                  diff: describeDiff(diffVersions(preview.data.before, preview.data.doc)),
                })}
              </p>
              {index > 0 &&
                (confirming ? (
                  <fieldset className="history-confirm" aria-label={t("portability.history.confirmLabel")}>
                    <p>{t("portability.history.confirmText")}</p>
                    <button type="button" className="button ghost" onClick={() => setConfirming(false)}>
                      {t("common.cancel")}
                    </button>
                    <button
                      type="button"
                      className="button primary"
                      disabled={busy}
                      onClick={() => void restore(picked)}
                    >
                      {busy ? t("portability.history.restoring") : t("portability.history.restore")}
                    </button>
                  </fieldset>
                ) : (
                  <button type="button" className="button" onClick={() => setConfirming(true)}>
                    <Icon name="undo" size={15} /> {t("portability.history.restoreThis")}
                  </button>
                ))}
            </>
          )}
        </section>
      </div>
    </Dialog>
  );
}
