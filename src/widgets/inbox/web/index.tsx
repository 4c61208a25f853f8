import { lazy, Suspense, useState } from "react";
import { useTranslation } from "react-i18next";
import { t } from "../../../web/i18n/i18n";
import { useLocale } from "../../../web/i18n/use-locale";
import { dataApi, dataKeys, type MailSummary } from "../../../web/lib/data-api";
import { useNow } from "../../../web/lib/use-now";
import { DataFrame } from "../../../web/widget-kit/data/DataFrame";
import { gatedWidget } from "../../../web/widget-kit/data/ProviderGate";
import { useWidgetPages } from "../../../web/widget-kit/data/useWidgetData";
import { PreviewList } from "../../../web/widget-kit/PreviewList";
import { defineWidget, type WidgetProps } from "../../../web/widget-kit/types";
import { inboxWidget as contract, type InboxConfig } from "../contract";
import { mailDate, senderName } from "./logic";
import { InboxSettings } from "./Settings";

// The reader (and its iframe plumbing) loads when a message is first opened.
const MessageDialog = lazy(() => import("./MessageDialog"));

function MessageRow({ message, when, onOpen }: { message: MailSummary; when: string; onOpen(): void }) {
  const { t } = useTranslation();
  return (
    <li className={`mail-row${message.unread ? " is-unread" : ""}`} data-message-id={message.id}>
      <button type="button" className="mail-open" onClick={onOpen}>
        <span className="mail-line">
          {message.unread && <span className="unread-dot" title={t("widgets.inbox.unread")} />}
          <span className="mail-from" title={message.from.email}>
            {senderName(message.from)}
          </span>
          <time className="mail-date" dateTime={message.date}>
            {when}
          </time>
        </span>
        <span className="mail-subject">
          {message.unread && <span className="visually-hidden">{t("widgets.inbox.unreadPrefix")}</span>}
          {message.subject || t("widgets.inbox.noSubject")}
        </span>
        <span className="mail-snippet">{message.snippet}</span>
      </button>
    </li>
  );
}

function InboxBody({ config, settings }: Pick<WidgetProps<InboxConfig>, "config" | "settings">) {
  const { t } = useTranslation();
  const locale = useLocale();
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
      <DataFrame
        query={query}
        upstream="suite"
        label={t("widgets.inbox.dataLabel")}
        provider="suite"
        purpose={t("widgets.inbox.purpose")}
        select={(data) => data.pages.flatMap((p) => p.messages)}
        empty={{ icon: "inbox", text: t("widgets.inbox.empty") }}
      >
        {(messages) => {
          const unread = messages.filter((m) => m.unread).length;
          return (
            <div className="mail">
              {unread > 0 && (
                <p className="mail-summary">
                  <span className="unread-dot" /> {t("widgets.inbox.unreadCount", { count: unread })}
                </p>
              )}
              <ul className="mail-list">
                {messages.map((m) => (
                  <MessageRow
                    key={m.id}
                    message={m}
                    when={mailDate(m.date, now, time, locale)}
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
                  {query.isFetchingNextPage ? t("common.loading") : t("widgets.inbox.loadMore")}
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

/** Senders in the picker's sample: names, the same in every language. */
const SAMPLE_SENDERS = ["Sam", "GitHub", "Ana"] as const;

function InboxPreview() {
  const { t } = useTranslation();
  const mails = [
    [SAMPLE_SENDERS[0], t("widgets.inbox.preview.lunch"), true],
    [SAMPLE_SENDERS[1], t("widgets.inbox.preview.review"), false],
    [SAMPLE_SENDERS[2], t("widgets.inbox.preview.slides"), false],
  ] as const;
  return (
    <PreviewList
      rows={mails.map(([from, subject, unread]) => ({
        key: subject,
        state: unread ? "is-unread" : undefined,
        text: (
          <>
            <strong>{from}</strong> {subject}
          </>
        ),
      }))}
    />
  );
}

export default defineWidget(contract, {
  group: "account",
  words: (t) => ({ name: t("widgets.inbox.name"), description: t("widgets.inbox.description") }),
  keywords: ["mail", "email", "gmail", "messages", "google"],
  icon: "inbox",
  defaultSize: { columns: 7, rows: 21 },
  setupSize: { columns: 5, rows: 12 },
  minSize: { columns: 4, rows: 10 },
  settingsNeedAccount: {
    // Read when the settings panel renders, so it is in the current language.
    get purpose() {
      return t("widgets.inbox.purpose");
    },
  },
  Component: gatedWidget("suite", (t) => t("widgets.inbox.purpose"), InboxBody),
  settings: [InboxSettings],
  Preview: InboxPreview,
});
