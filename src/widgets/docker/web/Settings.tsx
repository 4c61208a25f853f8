import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { useSettingsRoute } from "../../../web/app/settings-route";
import { useIntegrations } from "../../../web/integrations/integrations-api";
import { request } from "../../../web/lib/api";
import { ChoiceGroup } from "../../../web/ui/ChoiceGroup";
import { Field } from "../../../web/ui/fields";
import { Skeleton } from "../../../web/ui/States";
import { QueryView } from "../../../web/widget-kit/data/QueryView";
import { SearchInput } from "../../../web/widget-kit/SearchInput";
import type { WidgetSettingsProps } from "../../../web/widget-kit/types";
import { type ContainerState, DOCKER_CONTAINERS_MAX, type DockerConfig } from "../contract";
import { stateWord } from "./logic";

/** The picker shows this many matches; a search narrows a large host down. */
const SHOWN_MAX = 80;

interface ContainerChoice {
  name: string;
  image: string | null;
  /** "" for a name chosen earlier that the engine no longer has. */
  state: ContainerState | "";
}

function useContainerChoices(integrationId: string | undefined, enabled: boolean) {
  return useQuery({
    queryKey: ["docker", "containers", integrationId],
    queryFn: () =>
      request<ContainerChoice[]>(
        "GET",
        `/api/docker/containers?integrationId=${encodeURIComponent(integrationId ?? "")}`,
      ),
    enabled: enabled && Boolean(integrationId),
    staleTime: 15_000,
    retry: false,
  });
}

/** The saved integrations of kind `docker` the person may use, or where to make one. */
function IntegrationChoice({ value, onChange }: { value: string | undefined; onChange(id: string): void }) {
  const { t } = useTranslation();
  const integrations = useIntegrations();
  const settings = useSettingsRoute();
  const list = (integrations.data ?? []).filter((i) => i.kind === "docker");
  if (integrations.isSuccess && list.length === 0 && !value)
    return (
      <p className="field-hint docker-settings-none">
        {t("widgets.docker.settings.none")}{" "}
        <button type="button" className="docker-link" onClick={() => settings.open("integrations")}>
          {t("widgets.docker.settings.openIntegrations")}
        </button>
      </p>
    );
  return (
    <Field label={t("widgets.docker.settings.integration")}>
      {(id) => (
        <select id={id} value={value ?? ""} onChange={(e) => onChange(e.target.value)}>
          {!value && <option value="">{t("widgets.docker.settings.choose")}</option>}
          {value && !list.some((i) => i.id === value) && (
            <option value={value}>{t("widgets.docker.settings.unknownIntegration")}</option>
          )}
          {list.map((integration) => (
            <option key={integration.id} value={integration.id}>
              {integration.owner === "instance"
                ? t("widgets.docker.settings.shared", { name: integration.name })
                : integration.name}
            </option>
          ))}
        </select>
      )}
    </Field>
  );
}

/** The engine's containers, searchable, ticked to show; names chosen earlier stay listed. */
function ContainerPicker({
  integrationId,
  names,
  onChange,
}: {
  integrationId: string;
  names: string[];
  onChange(names: string[]): void;
}) {
  const { t } = useTranslation();
  const [search, setSearch] = useState("");
  const query = useContainerChoices(integrationId, true);
  const chosen = new Set(names);
  const full = names.length >= DOCKER_CONTAINERS_MAX;
  return (
    <fieldset className="field docker-picker">
      <legend className="field-label">{t("widgets.docker.settings.pick")}</legend>
      <QueryView
        query={query}
        skeleton={<Skeleton height={120} width="100%" />}
        errorTitle={t("widgets.docker.settings.pickFailed")}
        upstream={{ service: "Docker" }}
      >
        {(choices) => {
          const known = new Set(choices.map((c) => c.name));
          const all: ContainerChoice[] = [
            ...names
              .filter((n) => !known.has(n))
              .map((name): ContainerChoice => ({ name, image: null, state: "" })),
            ...choices,
          ];
          const words = search.toLowerCase().split(/\s+/).filter(Boolean);
          const found = all.filter((c) =>
            words.every((w) => `${c.name} ${c.image ?? ""}`.toLowerCase().includes(w)),
          );
          return (
            <>
              <SearchInput
                compact
                inForm
                aria-label={t("widgets.docker.settings.search")}
                placeholder={t("widgets.docker.settings.searchPlaceholder")}
                value={search}
                onChange={(e) => setSearch(e.target.value)}
              />
              {found.length === 0 ? (
                <p className="muted docker-picker-none">{t("widgets.docker.settings.noMatch")}</p>
              ) : (
                <ul className="docker-picker-list">
                  {found.slice(0, SHOWN_MAX).map((choice) => {
                    const checked = chosen.has(choice.name);
                    return (
                      <li key={choice.name}>
                        <label className="checkbox-row">
                          <input
                            type="checkbox"
                            checked={checked}
                            disabled={!checked && full}
                            onChange={(e) =>
                              onChange(
                                e.target.checked
                                  ? [...names, choice.name]
                                  : names.filter((n) => n !== choice.name),
                              )
                            }
                          />
                          <span className="docker-picker-text">
                            <span className="docker-picker-name">{choice.name}</span>
                            <span className="docker-picker-meta">
                              {choice.state
                                ? `${stateWord(choice.state)}${choice.image ? ` · ${choice.image}` : ""}`
                                : t("widgets.docker.notFound")}
                            </span>
                          </span>
                        </label>
                      </li>
                    );
                  })}
                </ul>
              )}
              {found.length > SHOWN_MAX && (
                <p className="field-hint">
                  {t("widgets.docker.settings.more", { count: found.length - SHOWN_MAX })}
                </p>
              )}
            </>
          );
        }}
      </QueryView>
    </fieldset>
  );
}

/**
 * The Docker widget's settings: the integration, then every container or the ones picked from
 * the engine's list (shown in the order picked).
 */
export default function DockerSettings({ config, onChange }: WidgetSettingsProps<DockerConfig>) {
  const { t } = useTranslation();
  const setIntegration = (id: string) => {
    const { integrationId: _old, ...rest } = config;
    onChange(id ? { ...rest, integrationId: id } : rest);
  };
  return (
    <div className="docker-settings">
      <IntegrationChoice value={config.integrationId} onChange={setIntegration} />
      <ChoiceGroup
        legend={t("widgets.docker.settings.containers")}
        value={config.containers}
        options={[
          { value: "all", label: t("widgets.docker.settings.all") },
          { value: "names", label: t("widgets.docker.settings.names") },
        ]}
        onChange={(containers) => onChange({ ...config, containers })}
      />
      {config.containers === "names" &&
        (config.integrationId ? (
          <ContainerPicker
            integrationId={config.integrationId}
            names={config.names}
            onChange={(names) => onChange({ ...config, names })}
          />
        ) : (
          <p className="field-hint">{t("widgets.docker.settings.integrationFirst")}</p>
        ))}
    </div>
  );
}
