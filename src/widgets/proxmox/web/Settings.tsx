import { useState } from "react";
import { useTranslation } from "react-i18next";
import { Field } from "../../../web/ui/fields";
import { IntegrationPicker, withIntegration } from "../../../web/widget-kit/settings/IntegrationPicker";
import type { WidgetSettingsProps } from "../../../web/widget-kit/types";
import { PROXMOX_NODE_FILTER_MAX, type ProxmoxConfig } from "../contract";
import { nodeNames } from "./logic";

/** Node names as Proxmox names them, the same in every language. */
const NODES_EXAMPLE = "pve1, pve2";

/** The integration kinds the widget reads. */
const PROXMOX_KINDS = ["proxmox"];

/**
 * The Proxmox widget's settings: the integration, and the nodes to narrow it to (typed, as a
 * cluster's node names are few and known by heart). The kinds of guest, the node list and the
 * refresh are generated fields.
 */
export default function ProxmoxSettings({ config, onChange }: WidgetSettingsProps<ProxmoxConfig>) {
  const { t } = useTranslation();
  const [typed, setTyped] = useState(config.nodes.join(", "));
  const typedNodes = nodeNames(typed);
  const tooMany = typedNodes.names.length > PROXMOX_NODE_FILTER_MAX;
  const invalid = typedNodes.invalid || tooMany;

  const typeNodes = (text: string) => {
    setTyped(text);
    const next = nodeNames(text);
    // What is no node name keeps the saved list until it is one.
    if (!next.invalid && next.names.length <= PROXMOX_NODE_FILTER_MAX)
      onChange({ ...config, nodes: next.names });
  };

  return (
    <div className="pve-settings">
      <IntegrationPicker
        kinds={PROXMOX_KINDS}
        value={config.integrationId}
        onChange={(id) => onChange(withIntegration(config, id))}
        words={{
          label: t("widgets.proxmox.settings.integration"),
          none: t("widgets.proxmox.settings.none"),
          openIntegrations: t("widgets.proxmox.settings.openIntegrations"),
          choose: t("widgets.proxmox.settings.choose"),
          unknown: t("widgets.proxmox.settings.unknownIntegration"),
          shared: (name) => t("widgets.proxmox.settings.shared", { name }),
        }}
      />
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
