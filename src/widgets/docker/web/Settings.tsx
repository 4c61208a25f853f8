import { useQuery } from "@tanstack/react-query";
import { useTranslation } from "react-i18next";
import { request } from "../../../web/lib/api";
import { ChoiceGroup } from "../../../web/ui/ChoiceGroup";
import { Skeleton } from "../../../web/ui/States";
import { QueryView } from "../../../web/widget-kit/data/QueryView";
import { IntegrationPicker, withIntegration } from "../../../web/widget-kit/settings/IntegrationPicker";
import { SearchChecklist } from "../../../web/widget-kit/settings/SearchChecklist";
import type { WidgetSettingsProps } from "../../../web/widget-kit/types";
import { type ContainerState, DOCKER_CONTAINERS_MAX, type DockerConfig } from "../contract";
import { stateWord } from "./logic";

/** The picker shows this many matches; a search narrows a large host down. */
const SHOWN_MAX = 80;

/** The integration kinds the widget reads. */
const DOCKER_KINDS = ["docker"];

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
          return (
            <SearchChecklist
              choices={all}
              keyOf={(choice) => choice.name}
              searchText={(choice) => `${choice.name} ${choice.image ?? ""}`}
              chosen={chosen}
              full={full}
              onToggle={(choice, on) =>
                onChange(on ? [...names, choice.name] : names.filter((n) => n !== choice.name))
              }
              shownMax={SHOWN_MAX}
              name={(choice) => choice.name}
              meta={(choice) =>
                choice.state
                  ? `${stateWord(choice.state)}${choice.image ? ` · ${choice.image}` : ""}`
                  : t("widgets.docker.notFound")
              }
              words={{
                search: t("widgets.docker.settings.search"),
                searchPlaceholder: t("widgets.docker.settings.searchPlaceholder"),
                noMatch: t("widgets.docker.settings.noMatch"),
                more: (count) => t("widgets.docker.settings.more", { count }),
              }}
            />
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
  return (
    <div className="docker-settings">
      <IntegrationPicker
        kinds={DOCKER_KINDS}
        value={config.integrationId}
        onChange={(id) => onChange(withIntegration(config, id))}
        words={{
          label: t("widgets.docker.settings.integration"),
          none: t("widgets.docker.settings.none"),
          openIntegrations: t("widgets.docker.settings.openIntegrations"),
          choose: t("widgets.docker.settings.choose"),
          unknown: t("widgets.docker.settings.unknownIntegration"),
          shared: (name) => t("widgets.docker.settings.shared", { name }),
        }}
      />
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
