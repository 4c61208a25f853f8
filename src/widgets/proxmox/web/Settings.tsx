import { useState } from "react";
import { useTranslation } from "react-i18next";
import { useSettingsRoute } from "../../../web/app/settings-route";
import { useIntegrations } from "../../../web/integrations/integrations-api";
import { Field } from "../../../web/ui/fields";
import type { WidgetSettingsProps } from "../../../web/widget-kit/types";
import { PROXMOX_NODE_FILTER_MAX, type ProxmoxConfig } from "../contract";
import { nodeNames } from "./logic";

/** Node names as Proxmox names them, the same in every language. */
const NODES_EXAMPLE = "pve1, pve2";

/**
 * The Proxmox widget's settings: the integration, and the nodes to narrow it to (typed, as a
 * cluster's node names are few and known by heart). The kinds of guest, the node list and the
 * refresh are generated fields.
 */
export default function ProxmoxSettings({ config, onChange }: WidgetSettingsProps<ProxmoxConfig>) {
  const { t } = useTranslation();
  const integrations = useIntegrations();
  const settings = useSettingsRoute();
  const [typed, setTyped] = useState(config.nodes.join(", "));
  const list = (integrations.data ?? []).filter((i) => i.kind === "proxmox");
  const chosen = list.find((i) => i.id === config.integrationId);
  const typedNodes = nodeNames(typed);
  const tooMany = typedNodes.names.length > PROXMOX_NODE_FILTER_MAX;
  const invalid = typedNodes.invalid || tooMany;

  const setIntegration = (id: string) => {
    const { integrationId: _old, ...rest } = config;
    onChange(id ? { ...rest, integrationId: id } : rest);
  };
  const typeNodes = (text: string) => {
    setTyped(text);
    const next = nodeNames(text);
    // What is no node name keeps the saved list until it is one.
    if (!next.invalid && next.names.length <= PROXMOX_NODE_FILTER_MAX)
      onChange({ ...config, nodes: next.names });
  };

  return (
    <div className="pve-settings">
      {integrations.isSuccess && list.length === 0 && !config.integrationId ? (
        <p className="field-hint">
          {t("widgets.proxmox.settings.none")}{" "}
          <button type="button" className="pve-link" onClick={() => settings.open("integrations")}>
            {t("widgets.proxmox.settings.openIntegrations")}
          </button>
        </p>
      ) : (
        <Field label={t("widgets.proxmox.settings.integration")}>
          {(id) => (
            <select
              id={id}
              value={config.integrationId ?? ""}
              onChange={(e) => setIntegration(e.target.value)}
            >
              {!config.integrationId && <option value="">{t("widgets.proxmox.settings.choose")}</option>}
              {config.integrationId && !chosen && (
                <option value={config.integrationId}>
                  {t("widgets.proxmox.settings.unknownIntegration")}
                </option>
              )}
              {list.map((integration) => (
                <option key={integration.id} value={integration.id}>
                  {integration.owner === "instance"
                    ? t("widgets.proxmox.settings.shared", { name: integration.name })
                    : integration.name}
                </option>
              ))}
            </select>
          )}
        </Field>
      )}
      <Field
        label={t("widgets.proxmox.settings.nodes")}
        hint={t("widgets.proxmox.settings.nodesHint")}
        error={
          tooMany
            ? t("widgets.proxmox.settings.nodesTooMany", { max: PROXMOX_NODE_FILTER_MAX })
            : invalid
              ? t("widgets.proxmox.settings.nodesInvalid")
              : undefined
        }
      >
        {(id, describedBy) => (
          <input
            id={id}
            aria-describedby={describedBy}
            aria-invalid={invalid || undefined}
            placeholder={NODES_EXAMPLE}
            spellCheck={false}
            autoCapitalize="off"
            value={typed}
            onChange={(e) => typeNodes(e.target.value)}
          />
        )}
      </Field>
    </div>
  );
}
