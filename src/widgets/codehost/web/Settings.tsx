import { useState } from "react";
import { useTranslation } from "react-i18next";
import { Field } from "../../../web/ui/fields";
import { Icon } from "../../../web/ui/icons";
import type { WidgetSettingsProps } from "../../../web/widget-kit/types";
import { type CodehostConfig, MAX_REPOS } from "../contract";
import { normaliseRepo } from "./logic";

/** Repositories typed as owner/name or pasted as a GitHub link, shown as removable chips. */
export function RepositorySettings({ config, onChange }: WidgetSettingsProps<CodehostConfig>) {
  const { t } = useTranslation();
  const [text, setText] = useState("");
  const [error, setError] = useState<string | null>(null);
  const add = () => {
    const repo = normaliseRepo(text);
    if (!repo) {
      setError(t("widgets.codehost.repos.invalid"));
      return;
    }
    if (!config.repos.includes(repo)) onChange({ ...config, repos: [...config.repos, repo] });
    setText("");
    setError(null);
  };
  return (
    <>
      <Field
        label={t("widgets.codehost.repos.label")}
        hint={t("widgets.codehost.repos.hint", { max: MAX_REPOS })}
        error={error ?? undefined}
      >
        {(id, describedBy) => (
          // Inside the settings form: Enter adds the repository instead of saving the panel.
          <div className="inline-add">
            <input
              id={id}
              placeholder={t("widgets.codehost.repos.placeholder")}
              value={text}
              aria-describedby={describedBy}
              aria-invalid={error ? true : undefined}
              disabled={config.repos.length >= MAX_REPOS}
              onChange={(e) => {
                setText(e.target.value);
                setError(null);
              }}
              onKeyDown={(e) => {
                if (e.key !== "Enter") return;
                e.preventDefault();
                add();
              }}
            />
            <button type="button" className="button small" disabled={!text.trim()} onClick={add}>
              {t("common.add")}
            </button>
          </div>
        )}
      </Field>
      {config.repos.length > 0 && (
        <ul className="chip-list" aria-label={t("widgets.codehost.repos.list")}>
          {config.repos.map((repo) => (
            <li key={repo} className="chip">
              {repo}
              <button
                type="button"
                className="icon-button small"
                aria-label={t("widgets.codehost.repos.remove", { repo })}
                onClick={() => onChange({ ...config, repos: config.repos.filter((r) => r !== repo) })}
              >
                <Icon name="x" size={12} />
              </button>
            </li>
          ))}
        </ul>
      )}
    </>
  );
}
