import { lazy, Suspense, useState } from "react";
import { inboxWidget as contract, type InboxConfig } from "../../../contract/widgets/inbox";
import { dataApi, dataKeys, type MailSummary } from "../../lib/data-api";
import { useNow } from "../../lib/use-now";
import { Icon } from "../../ui/icons";
import { DataFrame } from "../data/DataFrame";
import { ProviderGate } from "../data/ProviderGate";
import { useWidgetPages } from "../data/useWidgetData";
import { defineWidget, type WidgetProps } from "../types";
import { mailDate, senderName } from "./logic";
import { InboxSettings } from "./Settings";

// The reader (and its iframe plumbing) loads when a message is first opened.
const MessageDialog = lazy(() => import("./MessageDialog"));

function MessageRow({ message, when, onOpen }: { message: MailSummary; when: string; onOpen(): void }) {
  return (
    <li className={`mail-row${message.unread ? " is-unread" : ""}`} data-message-id={message.id}>
      <button type="button" className="mail-open" onClick={onOpen}>
        <span className="mail-line">
          {message.unread && <span className="unread-dot" title="Unread" />}
          <span className="mail-from" title={message.from.email}>
            {senderName(message.from)}
          </span>
          <time className="mail-date" dateTime={message.date}>
            {when}
          </time>
        </span>
        <span className="mail-subject">
          {message.unread && <span className="visually-hidden">Unread: </span>}
          {message.subject || "(no subject)"}
        </span>
        <span className="mail-snippet">{message.snippet}</span>
      </button>
    </li>
  );
}

function InboxBody({ config, settings }: Pick<WidgetProps<InboxConfig>, "config" | "settings">) {
  const now = useNow(60_000).getTime();
  const [open, setOpen] = useState<MailSummary | null>(null);
  const query = useWidgetPages({
    queryKey: [...dataKeys.provider("suite"), "mail", config.labels.join(",")],
    queryFn: (pageToken: string | undefined) => dataApi.mail.messages(config.labels, pageToken),
    nextCursor: (page) => page.nextPageToken,
    refreshMs: 2 * 60_000,
  });
  const time = { timezone: settings.timezone, hourFormat: settings.hourFormat };

  return (
    <>
      <DataFrame query={query} upstream="suite" label="mail" provider="suite" purpose="to see your mail here">
        {(data) => {
          const messages = data.pages.flatMap((p) => p.messages);
          const unread = messages.filter((m) => m.unread).length;
          if (messages.length === 0)
            return (
              <div className="widget-empty">
                <Icon name="inbox" size={22} />
                <p>No messages here. Inbox zero!</p>
              </div>
            );
          return (
            <div className="mail">
              {unread > 0 && (
                <p className="mail-summary">
                  <span className="unread-dot" /> {unread} unread
                </p>
              )}
              <ul className="mail-list">
                {messages.map((m) => (
                  <MessageRow
                    key={m.id}
                    message={m}
                    when={mailDate(m.date, now, time)}
                    onOpen={() => setOpen(m)}
                  />
                ))}
              </ul>
              {query.hasNextPage && (
                <button
                  type="button"
                  className="button ghost small mail-more"
                  disabled={query.isFetchingNextPage}
                  onClick={() => void query.fetchNextPage()}
                >
                  {query.isFetchingNextPage ? "Loading…" : "Load more"}
                </button>
              )}
            </div>
          );
        }}
      </DataFrame>
      {open && (
        <Suspense fallback={null}>
          <MessageDialog summary={open} settings={settings} onClose={() => setOpen(null)} />
        </Suspense>
      )}
    </>
  );
}

function InboxWidget({ config, settings }: WidgetProps<InboxConfig>) {
  return (
    <ProviderGate provider="suite" purpose="to see your mail here">
      <InboxBody config={config} settings={settings} />
    </ProviderGate>
  );
}

function InboxPreview() {
  return (
    <div className="preview preview-list">
      {[
        ["Sam", "Lunch on Friday?", true],
        ["GitHub", "Your review was requested", false],
        ["Ana", "Slides for Monday", false],
      ].map(([from, subject, unread]) => (
        <div key={String(subject)} className={`preview-row${unread ? " is-unread" : ""}`}>
          <strong>{from}</strong> {subject}
        </div>
      ))}
    </div>
  );
}

export const inboxWidget = defineWidget(contract, {
  name: "Inbox",
  description: "Your latest mail from the labels you choose; open a message to read it. Needs Google.",
  keywords: ["mail", "email", "gmail", "messages", "google"],
  icon: "inbox",
  defaultSize: { columns: 7, rows: 21 },
  setupSize: { columns: 5, rows: 12 },
  minSize: { columns: 4, rows: 10 },
  settingsNeedAccount: { purpose: "to see your mail here" },
  Component: InboxWidget,
  settings: [InboxSettings],
  Preview: InboxPreview,
});
