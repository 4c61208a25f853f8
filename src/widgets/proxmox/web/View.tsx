import { useTranslation } from "react-i18next";
import { useLocale } from "../../../web/i18n/use-locale";
import { Icon } from "../../../web/ui/icons";
import { IntegrationFrame } from "../../../web/widget-kit/data/IntegrationFrame";
import { useIntegrationData } from "../../../web/widget-kit/data/integration-data";
import type { WidgetProps } from "../../../web/widget-kit/types";
import {
  proxmoxWidget as contract,
  type ProxmoxConfig,
  type ProxmoxData,
  type ProxmoxGuest,
  type ProxmoxNode,
} from "../contract";
import {
  cpuShare,
  describeProxmoxError,
  guestKindWord,
  guestName,
  guestStatusWord,
  nodeStatusWord,
  shareOf,
  uptime,
  usedOf,
} from "./logic";
import "./proxmox.css";

/** A thin bar under a figure: the words carry the value, the bar only helps the eye. */
function Bar({ share }: { share: number | null }) {
  if (share === null) return null;
  const level = share >= 0.9 ? " is-high" : share >= 0.75 ? " is-raised" : "";
  return (
    <span className={`pve-bar${level}`} aria-hidden="true">
      <span style={{ width: `${Math.round(share * 100)}%` }} />
    </span>
  );
}

function NodeRow({ node }: { node: ProxmoxNode }) {
  const { t } = useTranslation();
  const locale = useLocale();
  const cpu = cpuShare(node.cpu, locale);
  const memory = usedOf(node.memoryUsed, node.memoryTotal, locale);
  const up = uptime(node.uptimeSeconds, locale);
  return (
    <li className={`pve-node is-${node.status}`} data-node={node.name}>
      <span className="pve-dot" aria-hidden="true" />
      <span className="pve-name">{node.name}</span>
      <span className="pve-state">{nodeStatusWord(node.status)}</span>
      {node.status === "online" && (cpu || memory) ? (
        <span className="pve-figures">
          {cpu && (
            <span className="pve-figure">
              <span className="pve-figure-text">{t("widgets.proxmox.cpu", { value: cpu })}</span>
              <Bar share={node.cpu} />
            </span>
          )}
          {memory && (
            <span className="pve-figure">
              <span className="pve-figure-text">{t("widgets.proxmox.memory", { value: memory })}</span>
              <Bar share={shareOf(node.memoryUsed, node.memoryTotal)} />
            </span>
          )}
          {up && (
            <span className="pve-figure">
              <span className="pve-figure-text">{t("widgets.proxmox.uptime", { value: up })}</span>
            </span>
          )}
        </span>
      ) : (
        node.status === "online" && (
          <span className="pve-figures muted">{t("widgets.proxmox.noFigures")}</span>
        )
      )}
    </li>
  );
}

function GuestRow({ guest }: { guest: ProxmoxGuest }) {
  const { t } = useTranslation();
  const locale = useLocale();
  const dash = "–";
  // data-label names each figure when a narrow card lays the table out in blocks, where the
  // column headers are out of sight.
  return (
    <tr className={`pve-guest is-${guest.status}`} data-vmid={guest.vmid}>
      <th scope="row">
        <div className="pve-guest-name">
          <span className="pve-dot" aria-hidden="true" />
          <span className="pve-name">{guestName(guest)}</span>
          <span className="pve-kind">
            {guestKindWord(guest)} · {guest.node}
          </span>
        </div>
      </th>
      <td className="pve-vmid">{guest.vmid}</td>
      <td className="pve-status">{guestStatusWord(guest.status)}</td>
      <td className="pve-num" data-label={t("widgets.proxmox.column.cpu")}>
        {cpuShare(guest.cpu, locale) ?? dash}
      </td>
      <td className="pve-num" data-label={t("widgets.proxmox.column.memory")}>
        {usedOf(guest.memoryUsed, guest.memoryTotal, locale) ?? dash}
      </td>
      <td className="pve-num" data-label={t("widgets.proxmox.column.disk")}>
        {usedOf(guest.diskUsed, guest.diskTotal, locale) ?? dash}
      </td>
    </tr>
  );
}

function Guests({ data }: { data: ProxmoxData }) {
  const { t } = useTranslation();
  const more = data.guestsTotal - data.guests.length;
  if (data.guests.length === 0) return <p className="pve-none muted">{t("widgets.proxmox.noGuests")}</p>;
  return (
    <>
      <table className="pve-guests">
        <caption className="visually-hidden">{t("widgets.proxmox.guestsHeading")}</caption>
        <thead>
          <tr>
            <th scope="col">{t("widgets.proxmox.column.name")}</th>
            <th scope="col" className="pve-vmid">
              {t("widgets.proxmox.column.id")}
            </th>
            <th scope="col">{t("widgets.proxmox.column.state")}</th>
            <th scope="col" className="pve-num">
              {t("widgets.proxmox.column.cpu")}
            </th>
            <th scope="col" className="pve-num">
              {t("widgets.proxmox.column.memory")}
            </th>
            <th scope="col" className="pve-num">
              {t("widgets.proxmox.column.disk")}
            </th>
          </tr>
        </thead>
        <tbody>
          {data.guests.map((guest) => (
            <GuestRow key={guest.id} guest={guest} />
          ))}
        </tbody>
      </table>
      {more > 0 && <p className="pve-more muted">{t("widgets.proxmox.more", { count: more })}</p>}
    </>
  );
}

function Cluster({ data, config }: { data: ProxmoxData; config: ProxmoxConfig }) {
  const { t } = useTranslation();
  const { running, stopped, other } = data.summary;
  return (
    // biome-ignore lint/a11y/noNoninteractiveTabindex: its own scroll region, so the keyboard reaches guests past the card's height (WCAG 2.1.1), as a viewer has no control inside to tab to.
    <section className="pve" tabIndex={0} aria-label={t("widgets.proxmox.listLabel")}>
      {config.guests !== "none" && (
        <p className="pve-summary">
          <span className="pve-count is-running">
            <span className="pve-dot" aria-hidden="true" />
            {t("widgets.proxmox.counts.running", { count: running })}
          </span>
          <span className="pve-count is-stopped">
            <span className="pve-dot" aria-hidden="true" />
            {t("widgets.proxmox.counts.stopped", { count: stopped })}
          </span>
          {other > 0 && (
            <span className="pve-count is-unknown">
              <span className="pve-dot" aria-hidden="true" />
              {t("widgets.proxmox.counts.other", { count: other })}
            </span>
          )}
          {data.version && (
            <span className="pve-version">{t("widgets.proxmox.version", { version: data.version })}</span>
          )}
        </p>
      )}
      {data.hint === "no-permission" && (
        <p className="pve-hint" role="note">
          <Icon name="shield" size={13} /> {t("widgets.proxmox.noPermission")}
        </p>
      )}
      {data.nodes.length > 0 && (
        <div className="pve-section">
          <h3 className="pve-heading">{t("widgets.proxmox.nodesHeading")}</h3>
          <ul className="pve-nodes">
            {data.nodes.map((node) => (
              <NodeRow key={node.name} node={node} />
            ))}
          </ul>
        </div>
      )}
      {config.guests !== "none" && (
        <div className="pve-section">
          <h3 className="pve-heading">{t("widgets.proxmox.guestsHeading")}</h3>
          <Guests data={data} />
        </div>
      )}
    </section>
  );
}

export default function ProxmoxView({ widget, config, readOnly, openSettings }: WidgetProps<ProxmoxConfig>) {
  const { t } = useTranslation();
  const data = useIntegrationData<ProxmoxData>({
    widget,
    asks: contract.data.visitorQuery(config),
    name: "proxmox",
    refreshMs: config.refreshSeconds * 1000,
    askAgain: "every-revision",
  });
  return (
    <IntegrationFrame
      data={data}
      readOnly={readOnly}
      openSettings={openSettings}
      empty={{
        icon: "monitor",
        text: t("widgets.proxmox.empty"),
        readOnlyText: t("widgets.proxmox.emptyReadOnly"),
        setUp: t("widgets.proxmox.setUp"),
      }}
      errorTitle={t("widgets.proxmox.couldNotLoad")}
      describeError={describeProxmoxError}
      label={t("widgets.proxmox.dataLabel")}
      upstream={{ service: "Proxmox VE" }}
    >
      {(shown) => <Cluster data={shown} config={config} />}
    </IntegrationFrame>
  );
}
