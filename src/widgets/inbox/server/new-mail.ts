import type { Notification } from "../../../contract/resources.js";
import { type ServerText, serverText } from "../../../contract/server-text.js";
import type { Db } from "../../../server/db/client.js";
import { ProblemError } from "../../../server/http/errors.js";
import { recordAlert } from "../../../server/jobs/record.js";
import type { WatchedWidget, Watcher } from "../../../server/jobs/watch/pass.js";
import { lockWatchStates } from "../../../server/jobs/watch/states.js";
import type { ProviderServices } from "../../../server/providers/client.js";
import { listMessages } from "../../../server/providers/suite/mail.js";
import type { InboxConfig } from "../contract.js";

/** The page the Inbox widget shows first, so a pass reads its cached answer when a tab is open. */
const PAGE_SIZE = 20;
const NO_SUBJECT = serverText("alerts.mail.noSubject");

/** More new messages than this in one pass make one summary, not a notification each. */
const ONE_EACH_UP_TO = 3;
const STATE_KEY = "mail";

interface MailState {
  /** The ids on the first page at the last pass: anything else appearing there is new. */
  ids: string[];
}

/**
 * Inbox `notifyNewMail`: each pass compares the first page of the widget's labels with the one
 * the previous pass saw. The first pass only remembers (no flood for mail that was already
 * there); each message is announced once (the key names it).
 */
export function newMailWatcher(services: ProviderServices): Watcher {
  return {
    type: "Inbox",
    async check(deps, watched) {
      const fired: Notification[] = [];
      for (const widget of watched as WatchedWidget<InboxConfig>[]) {
        let page: Awaited<ReturnType<typeof listMessages>>;
        try {
          const row = await services.account(widget.userId, "suite");
          page = await listMessages(services, row, { labels: widget.config.labels, pageSize: PAGE_SIZE });
        } catch (error) {
          if (!(error instanceof ProblemError)) throw error;
          deps.log.debug({ widgetId: widget.id, code: error.code }, "new mail: no messages");
          continue;
        }
        const notifications = await deps.database.db.transaction(async (transaction) => {
          const tx = transaction as unknown as Db;
          const states = await lockWatchStates<MailState>(tx, widget.id, STATE_KEY, deps.clock);
          const before = states.get(STATE_KEY);
          await states.save(STATE_KEY, { ids: page.messages.map((m) => m.id) });
          if (!before) return [];
          const seen = new Set(before.ids);
          const fresh = page.messages.filter((m) => !seen.has(m.id) && m.unread);
          const announce = async (key: string, text: ServerText) =>
            recordAlert(tx, deps.queue, deps.notifications, {
              userId: widget.userId,
              widgetId: widget.id,
              key: `${widget.id}:mail:${key}`,
              text,
            });
          if (fresh.length > ONE_EACH_UP_TO) {
            const one = await announce(
              fresh.map((m) => m.id).join(","),
              serverText("alerts.mail.summary", { count: fresh.length }),
            );
            return one ? [one] : [];
          }
          const each = await Promise.all(
            fresh.map((m) =>
              announce(
                m.id,
                serverText("alerts.mail.one", {
                  from: m.from.name || m.from.email,
                  subject: m.subject || NO_SUBJECT,
                }),
              ),
            ),
          );
          return each.filter((n): n is Notification => n !== null);
        });
        fired.push(...notifications);
      }
      return fired;
    },
  };
}
