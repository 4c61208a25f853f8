import { useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import type { Settings } from "../../contract/resources";
import { api, describeError, type SessionUser } from "../lib/api";
import { keys, useDashboards, useSettings } from "../lib/queries";
import { useAction } from "../lib/use-action";
import { Dialog } from "../ui/Dialog";
import { FormError, TextField } from "../ui/fields";
import { Icon, type IconName } from "../ui/icons";
import { isOwnDashboard } from "./dashboard-access";
import { useDashboardActions, validateDashboardName } from "./dashboards";
import { ThemeChoice } from "./ThemeChoice";

/** The tips of the last step; title and text are read as `onboarding.tips.<id>.title|text`. */
const TIPS: { id: "widgets" | "drag" | "undo" | "reminders"; icon: IconName }[] = [
  { id: "widgets", icon: "plus" },
  { id: "drag", icon: "grip" },
  { id: "undo", icon: "undo" },
  { id: "reminders", icon: "bell" },
];

/** Three short steps on first sign-in; finishing (or skipping) sets onboardingCompleted for good. */
export function Onboarding({ user }: { user: SessionUser }) {
  const { t } = useTranslation();
  const tipText = {
    widgets: { title: t("onboarding.tips.widgets.title"), text: t("onboarding.tips.widgets.text") },
    drag: { title: t("onboarding.tips.drag.title"), text: t("onboarding.tips.drag.text") },
    undo: { title: t("onboarding.tips.undo.title"), text: t("onboarding.tips.undo.text") },
    reminders: { title: t("onboarding.tips.reminders.title"), text: t("onboarding.tips.reminders.text") },
  };
  const client = useQueryClient();
  const { data: settings } = useSettings();
  const { data: dashboards } = useDashboards();
  const actions = useDashboardActions();
  const [step, setStep] = useState(0);
  const [name, setName] = useState(() => t("onboarding.defaultName"));
  const action = useAction();
  const { busy, error, setError } = action;
  // Dashboards shared with a newcomer (a starting board for everyone) are no board of their own.
  const own = dashboards?.filter(isOwnDashboard) ?? [];
  const hasDashboards = own.length > 0;

  const finish = async () => {
    if (!settings) return;
    await action.run(
      async () => {
        const saved = await api.settings.update({ id: settings.id, onboardingCompleted: true });
        client.setQueryData<Settings>(keys.settings, saved);
      },
      (e) => t("onboarding.finishFailed", { reason: describeError(e) }),
    );
  };

  const next = async () => {
    setError(null);
    if (step === 1 && !hasDashboards) {
      const problem = validateDashboardName(name);
      if (problem) {
        setError(problem);
        return;
      }
      if (!(await action.run(() => actions.create(name)))) return;
    }
    if (step === 2) await finish();
    else setStep(step + 1);
  };

  const titles = [
    t("onboarding.welcome.title", { name: user.name.split(" ")[0] }),
    t("onboarding.dashboard.title"),
    t("onboarding.tips.title"),
  ];

  return (
    <Dialog open onClose={() => {}} dismissible={false} size="md" title={titles[step]} className="onboarding">
      <div className="onboarding-step" key={step}>
        {step === 0 && (
          <>
            <p>{t("onboarding.welcome.text")}</p>
            <ThemeChoice legend={t("onboarding.theme.legend")} iconSize={20} autoFocus />
          </>
        )}
        {step === 1 &&
          (hasDashboards ? (
            <p>{t("onboarding.dashboard.existing", { count: own.length })}</p>
          ) : (
            <>
              <p>{t("onboarding.dashboard.text")}</p>
              <TextField
                label={t("onboarding.dashboard.nameLabel")}
                error={error}
                value={name}
                maxLength={100}
                onChange={(value) => {
                  setName(value);
                  setError(null);
                }}
                onKeyDown={(e) => {
                  if (e.key === "Enter") void next();
                }}
              />
            </>
          ))}
        {step === 2 && (
          <ul className="tips">
            {TIPS.map((tip) => (
              <li key={tip.id}>
                <span className="tip-icon">
                  <Icon name={tip.icon} size={18} />
                </span>
                <div>
                  <strong>{tipText[tip.id].title}</strong>
                  <p>{tipText[tip.id].text}</p>
                </div>
              </li>
            ))}
          </ul>
        )}
        {/* On the naming step the name field shows its own error. */}
        {(step !== 1 || hasDashboards) && <FormError message={error} />}
      </div>
      <div className="onboarding-footer">
        <p className="visually-hidden" aria-live="polite">
          {t("onboarding.step", { step: step + 1, total: 3 })}
        </p>
        <div className="dots" aria-hidden="true">
          {[0, 1, 2].map((i) => (
            <span key={i} className={i === step ? "is-current" : i < step ? "is-done" : ""} />
          ))}
        </div>
        <div className="dialog-actions">
          {step > 0 ? (
            <button type="button" className="button ghost" onClick={() => setStep(step - 1)} disabled={busy}>
              {t("common.back")}
            </button>
          ) : (
            <button type="button" className="button ghost" onClick={() => void finish()} disabled={busy}>
              {t("onboarding.skip")}
            </button>
          )}
          <button type="button" className="button primary" onClick={() => void next()} disabled={busy}>
            {step === 2
              ? busy
                ? t("onboarding.finishing")
                : t("onboarding.getStarted")
              : step === 1 && !hasDashboards
                ? t("onboarding.createAndContinue")
                : t("common.next")}
          </button>
        </div>
      </div>
    </Dialog>
  );
}
