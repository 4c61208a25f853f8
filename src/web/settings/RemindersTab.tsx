import { useCallback, useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { t } from "../i18n/i18n";
import { describeError } from "../lib/api";
import {
  currentSubscription,
  disablePush,
  enablePush,
  notificationPermission,
  PushSetupError,
  pushAvailability,
  refreshPush,
  sendTestPush,
} from "../lib/push";
import { FormError } from "../ui/fields";
import { useToasts } from "../ui/Toasts";

/** Where each reminder is set: per widget, in its settings (the server decides when it is due). */
const sources = (): { widget: string; what: string }[] => [
  {
    widget: t("settings.reminders.sources.countdown.widget"),
    what: t("settings.reminders.sources.countdown.what"),
  },
  { widget: t("settings.reminders.sources.todo.widget"), what: t("settings.reminders.sources.todo.what") },
  {
    widget: t("settings.reminders.sources.crypto.widget"),
    what: t("settings.reminders.sources.crypto.what"),
  },
  {
    widget: t("settings.reminders.sources.meetings.widget"),
    what: t("settings.reminders.sources.meetings.what"),
  },
  { widget: t("settings.reminders.sources.inbox.widget"), what: t("settings.reminders.sources.inbox.what") },
];

type State = { kind: "loading" } | { kind: "off" } | { kind: "on" } | { kind: "busy"; to: "on" | "off" };

/** Why push cannot be turned on here, or null when it can. */
function blocker(): string | null {
  const availability = pushAvailability();
  if (availability === "insecure") return t("settings.reminders.blocked.insecure");
  if (availability === "unsupported") return t("settings.reminders.blocked.unsupported");
  if (notificationPermission() === "denied") return t("settings.reminders.blocked.denied");
  return null;
}

/**
 * Settings › Reminders: where reminders come from, and Web Push on this device. The toggle shows
 * this browser's own subscription (each device decides for itself); the server keeps a copy.
 */
export function RemindersTab() {
  const { t } = useTranslation();
  const toasts = useToasts();
  const [state, setState] = useState<State>({ kind: "loading" });
  const [problem, setProblem] = useState<string | null>(blocker);
  const [testing, setTesting] = useState(false);

  useEffect(() => {
    let live = true;
    refreshPush()
      .then((on) => live && setState({ kind: on ? "on" : "off" }))
      .catch(async (error) => {
        if (!live) return;
        setProblem(error instanceof PushSetupError ? error.message : describeError(error));
        setState({ kind: (await currentSubscription().catch(() => null)) ? "on" : "off" });
      });
    return () => {
      live = false;
    };
  }, []);

  const toggle = useCallback(async (on: boolean) => {
    setProblem(null);
    setState({ kind: "busy", to: on ? "on" : "off" });
    try {
      if (on) await enablePush();
      else await disablePush();
      setState({ kind: on ? "on" : "off" });
    } catch (error) {
      setProblem(error instanceof PushSetupError ? error.message : describeError(error));
      setState({ kind: (await currentSubscription().catch(() => null)) ? "on" : "off" });
    }
  }, []);

  const test = async () => {
    setTesting(true);
    try {
      const { subscriptions } = await sendTestPush();
      toasts.show({
        tone: "success",
        message:
          subscriptions === 1
            ? t("settings.reminders.testSentHere")
            : t("settings.reminders.testSent", { count: subscriptions }),
      });
    } catch (error) {
      toasts.show({ tone: "error", message: describeError(error) });
    } finally {
      setTesting(false);
    }
  };

  const unavailable = blocker();
  const checked = state.kind === "on" || (state.kind === "busy" && state.to === "on");
  return (
    <div className="settings-section reminders-tab">
      <p className="muted">{t("settings.reminders.intro")}</p>
      <ul className="reminder-sources">
        {sources().map((s) => (
          <li key={s.widget}>
            <strong>{s.widget}</strong> <span className="muted">{s.what}</span>
          </li>
        ))}
      </ul>
      <h3 className="section-title">{t("settings.reminders.push.title")}</h3>
      <label className="checkbox-row">
        <input
          type="checkbox"
          checked={checked}
          disabled={unavailable !== null || state.kind === "loading" || state.kind === "busy"}
          onChange={(e) => void toggle(e.target.checked)}
        />
        {t("settings.reminders.push.toggle")}
        {state.kind === "on" && <span className="status-pill is-on">{t("settings.reminders.push.on")}</span>}
      </label>
      <p className="field-hint">{t("settings.reminders.push.hint")}</p>
      <FormError message={unavailable ?? problem} />
      <div className="dialog-actions start">
        <button
          type="button"
          className="button"
          disabled={state.kind !== "on" || testing}
          onClick={() => void test()}
        >
          {testing ? t("settings.reminders.test.sending") : t("settings.reminders.test.send")}
        </button>
      </div>
    </div>
  );
}
