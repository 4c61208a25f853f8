import { useMutation, useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { describeError } from "../../lib/api";
import { dataApi, dataKeys, type NotesPage } from "../../lib/data-api";
import { useDebounced } from "../../lib/use-debounced";
import { useNow } from "../../lib/use-now";
import { Dialog } from "../../ui/Dialog";
import { Icon } from "../../ui/icons";
import { ErrorState, Skeleton, Spinner } from "../../ui/States";
import { relativeTime } from "../data/format";
import { ProviderGate } from "../data/ProviderGate";
import { retryData } from "../data/useWidgetData";

function PageSearch({ onImport }: { onImport(page: NotesPage): void }) {
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
      <div className="search-input">
        <Icon name="search" size={15} />
        <input
          type="search"
          aria-label="Search Notion pages"
          placeholder="Search your Notion pages"
          value={text}
          maxLength={200}
          // biome-ignore lint/a11y/noAutofocus: the dialog exists to search.
          autoFocus
          data-autofocus
          onChange={(e) => setText(e.target.value)}
        />
        {pages.isFetching && <Spinner label="Searching" />}
      </div>
      {load.isError && (
        <p className="form-error" role="alert">
          That page didn't import: {describeError(load.error)}
        </p>
      )}
      {pages.isPending ? (
        <div className="data-skeleton">
          <Skeleton height={36} width="100%" />
          <Skeleton height={36} width="100%" />
          <Skeleton height={36} width="100%" />
        </div>
      ) : pages.isError ? (
        <ErrorState error={pages.error} title="Notion didn't answer" onRetry={() => void pages.refetch()} />
      ) : pages.data.pages.length === 0 ? (
        <p className="muted import-none">
          {q ? `No page matches “${q}”.` : "No pages are shared with Tessera yet. Share some in Notion."}
        </p>
      ) : (
        <ul className="import-list" aria-label="Notion pages">
          {pages.data.pages.map((page) => (
            <li key={page.id}>
              <button
                type="button"
                className="import-page"
                disabled={load.isPending}
                aria-label={`Import ${page.title || "Untitled"}`}
                onClick={() => load.mutate(page.id)}
              >
                <span className="import-icon" aria-hidden="true">
                  {page.icon ?? <Icon name="note" size={15} />}
                </span>
                <span className="import-title">{page.title || "Untitled"}</span>
                {page.lastEditedAt && (
                  <span className="muted import-edited">
                    edited {relativeTime(Date.parse(page.lastEditedAt), now)}
                  </span>
                )}
                <span className="import-action">
                  {load.isPending && load.variables === page.id ? "Importing…" : "Import"}
                </span>
              </button>
            </li>
          ))}
        </ul>
      )}
      {pages.data?.nextCursor && <p className="muted import-none">More pages match; narrow the search.</p>}
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
  return (
    <Dialog
      open
      onClose={onClose}
      size="md"
      title="Import from Notion"
      description="Pick a page; it becomes a new Markdown note here. The Notion page is not changed."
    >
      <ProviderGate provider="notes" purpose="to import its pages as notes">
        <PageSearch onImport={onImport} />
      </ProviderGate>
    </Dialog>
  );
}
