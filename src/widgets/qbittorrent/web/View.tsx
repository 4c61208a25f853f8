import { useTranslation } from "react-i18next";
import { useLocale } from "../../../web/i18n/use-locale";
import { Icon } from "../../../web/ui/icons";
import { IntegrationFrame } from "../../../web/widget-kit/data/IntegrationFrame";
import { useIntegrationData } from "../../../web/widget-kit/data/integration-data";
import type { WidgetProps } from "../../../web/widget-kit/types";
import {
  qbittorrentWidget as contract,
  QBT_REFRESH_MS,
  type QbittorrentConfig,
  type QbittorrentData,
  type QbTorrent,
} from "../contract";
import {
  describeQbittorrentError,
  formatBytes,
  formatEta,
  formatProgress,
  formatSpeed,
  stateWord,
} from "./logic";

function Speed({ transfer, down }: { transfer: QbittorrentData["transfer"]; down: boolean }) {
  const { t } = useTranslation();
  const locale = useLocale();
  const limit = down ? transfer.downloadLimit : transfer.uploadLimit;
  return (
    <div className={`qbt-speed ${down ? "is-down" : "is-up"}`}>
      <Icon name={down ? "download" : "upload"} size={16} />
      <span className="qbt-speed-label">
        {down ? t("widgets.qBittorrent.download") : t("widgets.qBittorrent.upload")}
      </span>
      <strong className="qbt-speed-value">
        {formatSpeed(down ? transfer.downloadSpeed : transfer.uploadSpeed, locale)}
      </strong>
      <span className="qbt-speed-meta">
        {t("widgets.qBittorrent.session", {
          amount: formatBytes(down ? transfer.downloaded : transfer.uploaded, locale),
        })}
      </span>
      {limit !== null && (
        <span className="qbt-speed-limit">
          {t("widgets.qBittorrent.limit", { value: formatSpeed(limit, locale) })}
        </span>
      )}
    </div>
  );
}

function Speeds({ transfer }: { transfer: QbittorrentData["transfer"] }) {
  return (
    <div className="qbt-speeds">
      <Speed transfer={transfer} down />
      <Speed transfer={transfer} down={false} />
    </div>
  );
}

function Counts({ data }: { data: QbittorrentData }) {
  const { t } = useTranslation();
  const { counts, countsAtLeast, transfer } = data;
  const active = countsAtLeast
    ? t("widgets.qBittorrent.counts.activeAtLeast", { count: counts.active })
    : t("widgets.qBittorrent.counts.active", { count: counts.active });
  return (
    <p className="qbt-counts">
      <span>{active}</span>
      <span>{t("widgets.qBittorrent.counts.downloading", { count: counts.downloading })}</span>
      <span>{t("widgets.qBittorrent.counts.seeding", { count: counts.seeding })}</span>
      {transfer.connection !== "connected" && (
        <span className={`qbt-connection is-${transfer.connection}`}>
          <Icon name="alert" size={13} />
          {transfer.connection === "firewalled"
            ? t("widgets.qBittorrent.connection.firewalled")
            : transfer.connection === "disconnected"
              ? t("widgets.qBittorrent.connection.disconnected")
              : t("widgets.qBittorrent.connection.unknown")}
        </span>
      )}
    </p>
  );
}

function TorrentRow({ torrent }: { torrent: QbTorrent }) {
  const { t } = useTranslation();
  const locale = useLocale();
  const percent = formatProgress(torrent.progress, locale);
  const facts = [
    torrent.downloadSpeed > 0 && `↓ ${formatSpeed(torrent.downloadSpeed, locale)}`,
    torrent.uploadSpeed > 0 && `↑ ${formatSpeed(torrent.uploadSpeed, locale)}`,
    torrent.eta !== null && t("widgets.qBittorrent.eta", { time: formatEta(torrent.eta, locale) }),
  ].filter(Boolean);
  return (
    <li className={`qbt-torrent is-${torrent.group}`}>
      <div className="qbt-torrent-head">
        <span className="qbt-name" title={torrent.name}>
          {torrent.name}
        </span>
        <span className="qbt-percent">{percent}</span>
      </div>
      <div
        className="qbt-bar"
        role="progressbar"
        aria-label={t("widgets.qBittorrent.progressOf", { name: torrent.name })}
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={Math.floor(torrent.progress * 100)}
        aria-valuetext={percent}
      >
        <span style={{ width: `${Math.min(torrent.progress, 1) * 100}%` }} />
      </div>
      <p className="qbt-meta">
        <strong className="qbt-state">{stateWord(torrent.group)}</strong>
        {facts.map((fact) => ` · ${fact}`).join("")}
      </p>
    </li>
  );
}

function Torrents({ data }: { data: QbittorrentData }) {
  const { t } = useTranslation();
  const more = data.counts.active - data.torrents.length;
  return (
    // biome-ignore lint/a11y/noNoninteractiveTabindex: its own scroll region, so the keyboard reaches torrents past the card's height (WCAG 2.1.1), as there is no control inside to tab to.
    <section className="qbt" tabIndex={0} aria-label={t("widgets.qBittorrent.listLabel")}>
      <Speeds transfer={data.transfer} />
      <Counts data={data} />
      {data.torrents.length === 0 ? (
        <p className="muted qbt-none">{t("widgets.qBittorrent.idle")}</p>
      ) : (
        <ul className="qbt-torrents">
          {data.torrents.map((torrent) => (
            <TorrentRow key={torrent.hash} torrent={torrent} />
          ))}
        </ul>
      )}
      {more > 0 && (
        <p className="qbt-more">
          {data.countsAtLeast
            ? t("widgets.qBittorrent.moreAtLeast", { count: more })
            : t("widgets.qBittorrent.more", { count: more })}
        </p>
      )}
    </section>
  );
}

export default function QbittorrentView({
  widget,
  config,
  readOnly,
  openSettings,
}: WidgetProps<QbittorrentConfig>) {
  const { t } = useTranslation();
  const data = useIntegrationData<QbittorrentData>({
    widget,
    asks: contract.data.visitorQuery(config),
    name: "qbittorrent",
    refreshMs: QBT_REFRESH_MS,
  });
  return (
    <IntegrationFrame
      data={data}
      readOnly={readOnly}
      openSettings={openSettings}
      empty={{
        icon: "download",
        text: t("widgets.qBittorrent.empty"),
        readOnlyText: t("widgets.qBittorrent.emptyReadOnly"),
        setUp: t("widgets.qBittorrent.setUp"),
      }}
      errorTitle={t("widgets.qBittorrent.couldNotLoad")}
      describeError={describeQbittorrentError}
      label={t("widgets.qBittorrent.dataLabel")}
      upstream={{ service: "qBittorrent" }}
    >
      {(shown) => <Torrents data={shown} />}
    </IntegrationFrame>
  );
}
