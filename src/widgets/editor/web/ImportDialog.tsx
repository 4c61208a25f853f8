import { useMutation, useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { dataApi, dataKeys, type NotesPage } from "../../../web/lib/data-api";
import { useDebounced } from "../../../web/lib/use-debounced";
import { useNow } from "../../../web/lib/use-now";
import { Dialog } from "../../../web/ui/Dialog";
import { Icon } from "../../../web/ui/icons";
import { Skeleton } from "../../../web/ui/States";
import { describeDataError } from "../../../web/widget-kit/data/errors";
import { relativeTime } from "../../../web/widget-kit/data/format";
import { ProviderGate } from "../../../web/widget-kit/data/ProviderGate";
import { QueryView } from "../../../web/widget-kit/data/QueryView";
import { retryData } from "../../../web/widget-kit/data/useWidgetData";
import { SearchInput } from "../../../web/widget-kit/SearchInput";

function PageSearch({ onImport }: { onImport(page: NotesPage): void }) {
  const { t } = useTranslation();
  const [text, setText] = useState("");
  const q = useDebounced(text.trim(), 300);
  const now = useNow(60_000).getTime();
  const pages = useQuery({
    queryKey: [...dataKeys.provider("notes"), "pages", q.toLowerCase()],
    queryFn: () => dataApi.notes.pages(q),
    staleTime: 30_000,
    retry: retryData,
  });
  const load = useMutation({ mutationFn: (id: string) => dataApi.notes.page(id), onSuccess: onImport });

  return (
    <div className="import-notes">
      <SearchInput
        searching={pages.isFetching ? t("widgets.editor.import.searching") : undefined}
        aria-label={t("widgets.editor.import.search")}
        placeholder={t("widgets.editor.import.searchPlaceholder")}
        value={text}
        maxLength={200}
        // The dialog exists to search.
        autoFocus
        data-autofocus
        onChange={(e) => setText(e.target.value)}
      />
      {load.isError && (
        <p className="form-error" role="alert">
          {t("widgets.editor.import.failed", { reason: describeDataError(load.error, "notes") })}
        </p>
      )}
      <QueryView
        query={pages}
        skeleton={
          <div className="data-skeleton">
            <Skeleton height={36} width="100%" />
            <Skeleton height={36} width="100%" />
            <Skeleton height={36} width="100%" />
          </div>
        }
        errorTitle={t("widgets.editor.import.notionFailed")}
        upstream="notes"
      >
        {(found) =>
          found.pages.length === 0 ? (
            <p className="muted import-none">
              {q ? t("widgets.editor.import.noMatch", { query: q }) : t("widgets.editor.import.noPages")}
            </p>
          ) : (
            <ul className="import-list" aria-label={t("widgets.editor.import.pages")}>
              {found.pages.map((page) => (
                <li key={page.id}>
                  <button
                    type="button"
                    className="import-page"
                    disabled={load.isPending}
                    aria-label={t("widgets.editor.import.page", {
                      title: page.title || t("widgets.editor.untitled"),
                    })}
                    onClick={() => load.mutate(page.id)}
                  >
                    <span className="import-icon" aria-hidden="true">
                      {page.icon ?? <Icon name="note" size={15} />}
                    </span>
                    <span className="import-title">{page.title || t("widgets.editor.untitled")}</span>
                    {page.lastEditedAt && (
                      <span className="muted import-edited">
                        {t("widgets.editor.import.edited", {
                          when: relativeTime(Date.parse(page.lastEditedAt), now),
                        })}
                      </span>
                    )}
                    <span className="import-action">
                      {load.isPending && load.variables === page.id
                        ? t("widgets.editor.import.importing")
                        : t("widgets.editor.import.action")}
                    </span>
                  </button>
                </li>
              ))}
            </ul>
          )
        }
      </QueryView>
      {pages.data?.nextCursor && <p className="muted import-none">{t("widgets.editor.import.more")}</p>}
    </div>
  );
}

export default function ImportDialog({
  onImport,
  onClose,
}: {
  onImport(page: NotesPage): void;
  onClose(): void;
}) {
  const { t } = useTranslation();
  return (
    <Dialog
      open
      onClose={onClose}
      size="md"
      title={t("widgets.editor.import.title")}
      description={t("widgets.editor.import.description")}
    >
      <ProviderGate provider="notes" purpose={t("widgets.editor.import.purpose")}>
        <PageSearch onImport={onImport} />
      </ProviderGate>
    </Dialog>
  );
}
