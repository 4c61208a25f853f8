import { useCallback, useEffect, useState } from "react";
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
import { useToasts } from "../ui/Toasts";

/** Where each reminder is set: per widget, in its settings (the server decides when it is due). */
const SOURCES: { widget: string; what: string }[] = [
  { widget: "Countdown", what: "“Notify me when it ends”" },
  { widget: "Todo", what: "a due date on an item" },
  { widget: "Crypto", what: "price alerts above or below a price" },
  { widget: "Meetings", what: "“Remind me” minutes before each event" },
  { widget: "Inbox", what: "new mail" },
];

type State = { kind: "loading" } | { kind: "off" } | { kind: "on" } | { kind: "busy"; to: "on" | "off" };

/** Why push cannot be turned on here, or null when it can. */
function blocker(): string | null {
  const availability = pushAvailability();
  if (availability === "insecure")
    return "Push notifications need a secure page: open Tessera over https (or on http://localhost).";
  if (availability === "unsupported")
    return "This browser does not support push notifications. On iPhone and iPad, add Tessera to the home screen first.";
  if (notificationPermission() === "denied")
    return "Notifications are blocked for this site. Allow them in the browser's site settings, then come back.";
  return null;
}

/**
 * Settings › Reminders: where reminders come from, and Web Push on this device. The toggle shows
 * this browser's own subscription (each device decides for itself); the server keeps a copy.
 */
export function RemindersTab() {
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
            ? "Test notification sent to this device."
            : `Test notification sent to ${subscriptions} devices.`,
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
      <p className="muted">
        Reminders are set on each widget, in its settings. The server keeps the time, so they arrive in the
        bell even when no Tessera tab is open, and only once however many tabs are.
      </p>
      <ul className="reminder-sources">
        {SOURCES.map((s) => (
          <li key={s.widget}>
            <strong>{s.widget}</strong> <span className="muted">{s.what}</span>
          </li>
        ))}
      </ul>
      <h3 className="section-title">Push notifications</h3>
      <label className="checkbox-row">
        <input
          type="checkbox"
          checked={checked}
          disabled={unavailable !== null || state.kind === "loading" || state.kind === "busy"}
          onChange={(e) => void toggle(e.target.checked)}
        />
        Push notifications on this device
        {state.kind === "on" && <span className="status-pill is-on">On</span>}
      </label>
      <p className="field-hint">
        Shows reminders as system notifications on this device, even with the browser in the background. Each
        device and browser is turned on separately.
      </p>
      {(unavailable ?? problem) && (
        <p className="form-error" role="alert">
          {unavailable ?? problem}
        </p>
      )}
      <div className="dialog-actions start">
        <button
          type="button"
          className="button"
          disabled={state.kind !== "on" || testing}
          onClick={() => void test()}
        >
          {testing ? "Sending…" : "Send a test notification"}
        </button>
      </div>
    </div>
  );
}
