import { useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import type { Settings } from "../../contract/resources";
import { api, describeError, type SessionUser } from "../lib/api";
import type { Theme } from "../lib/app-settings";
import { keys, useAppSettings, useDashboards, useSettings, useUpdateSettings } from "../lib/queries";
import { ChoiceGroup } from "../ui/ChoiceGroup";
import { Dialog } from "../ui/Dialog";
import { Field } from "../ui/fields";
import { Icon, type IconName } from "../ui/icons";
import { useDashboardActions, validateDashboardName } from "./dashboards";

const THEME_CHOICES: { value: Theme; label: string; icon: IconName }[] = [
  { value: "light", label: "Light", icon: "sun" },
  { value: "dark", label: "Dark", icon: "moon" },
  { value: "system", label: "System", icon: "monitor" },
];

const TIPS: { icon: IconName; title: string; text: string }[] = [
  {
    icon: "plus",
    title: "Add widgets",
    text: "Clocks, countdowns, bookmarks, todos, boards, notes and web pages.",
  },
  {
    icon: "grip",
    title: "Drag and resize",
    text: "Drag a widget by its header, resize it from its corner. It snaps into place.",
  },
  { icon: "undo", title: "Undo", text: "Moved or removed something by mistake? Press Ctrl+Z or use Undo." },
  { icon: "bell", title: "Reminders", text: "Countdowns and todos remind you. Tune it all in Settings." },
];

/** Three short steps on first sign-in; finishing (or skipping) sets onboardingCompleted for good. */
export function Onboarding({ user }: { user: SessionUser }) {
  const client = useQueryClient();
  const { data: settings } = useSettings();
  const { data: dashboards } = useDashboards();
  const appSettings = useAppSettings();
  const updateSettings = useUpdateSettings();
  const actions = useDashboardActions();
  const [step, setStep] = useState(0);
  const [name, setName] = useState("Home");
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const hasDashboards = (dashboards?.length ?? 0) > 0;

  const finish = async () => {
    if (!settings) return;
    setBusy(true);
    setError(null);
    try {
      const saved = await api.settings.update({ id: settings.id, onboardingCompleted: true });
      client.setQueryData<Settings>(keys.settings, saved);
    } catch (e) {
      setError(`Couldn't save that you finished: ${describeError(e)}`);
    } finally {
      setBusy(false);
    }
  };

  const next = async () => {
    setError(null);
    if (step === 1 && !hasDashboards) {
      const problem = validateDashboardName(name);
      if (problem) {
        setError(problem);
        return;
      }
      setBusy(true);
      try {
        await actions.create(name);
      } catch (e) {
        setError(describeError(e));
        return;
      } finally {
        setBusy(false);
      }
    }
    if (step === 2) await finish();
    else setStep(step + 1);
  };

  const titles = [`Welcome to Tessera, ${user.name.split(" ")[0]}`, "Your first dashboard", "Make it yours"];

  return (
    <Dialog open onClose={() => {}} dismissible={false} size="md" title={titles[step]} className="onboarding">
      <div className="onboarding-step" key={step}>
        {step === 0 && (
          <>
            <p>
              Tessera keeps the things you check every day on one calm page: the time in other cities, the
              days until a trip, your links, todos, boards and notes. Everything stays on your own server.
            </p>
            <ChoiceGroup
              legend="Pick a look (you can change it later):"
              autoFocus
              value={appSettings.theme}
              options={THEME_CHOICES.map((c) => ({ ...c, icon: <Icon name={c.icon} size={20} /> }))}
              onChange={(theme) => updateSettings.updateConfig({ theme })}
            />
          </>
        )}
        {step === 1 &&
          (hasDashboards ? (
            <p>
              You already have {dashboards?.length === 1 ? "a dashboard" : `${dashboards?.length} dashboards`}
              . You can add more any time from the dashboard menu at the top.
            </p>
          ) : (
            <>
              <p>Dashboards group widgets. Start with one; add more for work, home or a project later.</p>
              <Field label="Dashboard name" error={error ?? undefined}>
                {(id, describedBy) => (
                  <input
                    id={id}
                    value={name}
                    maxLength={100}
                    aria-describedby={describedBy}
                    aria-invalid={error ? true : undefined}
                    onChange={(e) => {
                      setName(e.target.value);
                      setError(null);
                    }}
                    onKeyDown={(e) => {
                      if (e.key === "Enter") void next();
                    }}
                  />
                )}
              </Field>
            </>
          ))}
        {step === 2 && (
          <ul className="tips">
            {TIPS.map((tip) => (
              <li key={tip.title}>
                <span className="tip-icon">
                  <Icon name={tip.icon} size={18} />
                </span>
                <div>
                  <strong>{tip.title}</strong>
                  <p>{tip.text}</p>
                </div>
              </li>
            ))}
          </ul>
        )}
        {error && step !== 1 && (
          <p className="form-error" role="alert">
            {error}
          </p>
        )}
        {error && step === 1 && hasDashboards && (
          <p className="form-error" role="alert">
            {error}
          </p>
        )}
      </div>
      <div className="onboarding-footer">
        <p className="visually-hidden" aria-live="polite">{`Step ${step + 1} of 3`}</p>
        <div className="dots" aria-hidden="true">
          {[0, 1, 2].map((i) => (
            <span key={i} className={i === step ? "is-current" : i < step ? "is-done" : ""} />
          ))}
        </div>
        <div className="dialog-actions">
          {step > 0 ? (
            <button type="button" className="button ghost" onClick={() => setStep(step - 1)} disabled={busy}>
              Back
            </button>
          ) : (
            <button type="button" className="button ghost" onClick={() => void finish()} disabled={busy}>
              Skip
            </button>
          )}
          <button type="button" className="button primary" onClick={() => void next()} disabled={busy}>
            {step === 2
              ? busy
                ? "Finishing…"
                : "Get started"
              : step === 1 && !hasDashboards
                ? "Create and continue"
                : "Next"}
          </button>
        </div>
      </div>
    </Dialog>
  );
}
