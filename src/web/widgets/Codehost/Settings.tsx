import { useState } from "react";
import { type CodehostConfig, MAX_REPOS } from "../../../contract/widgets/codehost";
import { Field } from "../../ui/fields";
import { Icon } from "../../ui/icons";
import type { WidgetSettingsProps } from "../types";
import { normaliseRepo } from "./logic";

/** Repositories typed as owner/name or pasted as a GitHub link, shown as removable chips. */
export function RepositorySettings({ config, onChange }: WidgetSettingsProps<CodehostConfig>) {
  const [text, setText] = useState("");
  const [error, setError] = useState<string | null>(null);
  const add = () => {
    const repo = normaliseRepo(text);
    if (!repo) {
      setError("Write it as owner/name, like octocat/hello-world");
      return;
    }
    if (!config.repos.includes(repo)) onChange({ ...config, repos: [...config.repos, repo] });
    setText("");
    setError(null);
  };
  return (
    <>
      <Field
        label="Only these repositories"
        hint={`Leave empty for every repository you can see. At most ${MAX_REPOS}.`}
        error={error ?? undefined}
      >
        {(id, describedBy) => (
          // Inside the settings form: Enter adds the repository instead of saving the panel.
          <div className="inline-add">
            <input
              id={id}
              placeholder="owner/name"
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
              Add
            </button>
          </div>
        )}
      </Field>
      {config.repos.length > 0 && (
        <ul className="chip-list" aria-label="Repositories">
          {config.repos.map((repo) => (
            <li key={repo} className="chip">
              {repo}
              <button
                type="button"
                className="icon-button small"
                aria-label={`Remove ${repo}`}
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
