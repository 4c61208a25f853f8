import { useState } from "react";
import { useTranslation } from "react-i18next";
import { Icon } from "../../../web/ui/icons";
import { IntegrationFrame } from "../../../web/widget-kit/data/IntegrationFrame";
import { useIntegrationData } from "../../../web/widget-kit/data/integration-data";
import { type DataSource, useDataSource } from "../../../web/widget-kit/data/source";
import type { WidgetProps } from "../../../web/widget-kit/types";
import {
  jellyfinWidget as contract,
  JELLYFIN_REFRESH_MS,
  type JellyfinConfig,
  type JellyfinData,
  type JellyfinLatest,
  type JellyfinPlaying,
} from "../contract";
import { posterUrl } from "./api";
import { describeJellyfinError, latestCaption, playerClock, playingSubtitle } from "./logic";

function PlayingRow({ playing }: { playing: JellyfinPlaying }) {
  const { t } = useTranslation();
  const subtitle = playingSubtitle(playing);
  const who = [playing.user, playing.device].filter(Boolean).join(" · ");
  const time =
    playing.runtimeSeconds !== null
      ? `${playerClock(playing.positionSeconds)} / ${playerClock(playing.runtimeSeconds)}`
      : playerClock(playing.positionSeconds);
  const percent = playing.progress === null ? null : Math.floor(playing.progress * 100);
  return (
    <li className={`jf-session${playing.paused ? " is-paused" : ""}`}>
      <div className="jf-session-head">
        <span className="jf-title" title={playing.title}>
          {playing.title}
        </span>
        {/* The word says it; the colour only helps. */}
        <span className="jf-state">
          {playing.paused ? t("widgets.jellyfin.paused") : t("widgets.jellyfin.playing")}
        </span>
      </div>
      {subtitle && <p className="jf-subtitle">{subtitle}</p>}
      {percent !== null && (
        <div
          className="jf-bar"
          role="progressbar"
          aria-label={t("widgets.jellyfin.progressOf", { title: playing.title })}
          aria-valuemin={0}
          aria-valuemax={100}
          aria-valuenow={percent}
          aria-valuetext={time}
        >
          <span style={{ width: `${percent}%` }} />
        </div>
      )}
      <p className="jf-meta">
        {[who || null, time, playing.transcoding ? t("widgets.jellyfin.transcoding") : null]
          .filter(Boolean)
          .join(" · ")}
      </p>
    </li>
  );
}

function Poster({ src }: { src: string | null }) {
  const [failed, setFailed] = useState(false);
  if (!src || failed)
    return (
      <span className="jf-poster is-missing" aria-hidden="true">
        <Icon name="video" size={20} />
      </span>
    );
  // The caption beside it names the item: the picture adds nothing for a screen reader.
  return (
    <img
      className="jf-poster"
      src={src}
      alt=""
      loading="lazy"
      decoding="async"
      onError={() => setFailed(true)}
    />
  );
}

function LatestItem({
  item,
  widgetId,
  source,
}: {
  item: JellyfinLatest;
  widgetId: string;
  source: DataSource;
}) {
  const { name, detail } = latestCaption(item);
  return (
    <li className="jf-item">
      <Poster src={item.poster ? posterUrl(source, widgetId, item.poster) : null} />
      <span className="jf-item-name" title={name}>
        {name}
      </span>
      {detail && <span className="jf-item-detail">{detail}</span>}
    </li>
  );
}

function Media({ data, widgetId }: { data: JellyfinData; widgetId: string }) {
  const { t } = useTranslation();
  const source = useDataSource();
  const more = data.playingTotal - data.nowPlaying.length;
  return (
    // biome-ignore lint/a11y/noNoninteractiveTabindex: its own scroll region, so the keyboard reaches what is past the card's height (WCAG 2.1.1), as there is no control inside to tab to.
    <section className="jf" tabIndex={0} aria-label={t("widgets.jellyfin.listLabel")}>
      <section className="jf-part" aria-labelledby={`jf-playing-${widgetId}`}>
        <h3 className="jf-heading" id={`jf-playing-${widgetId}`}>
          {t("widgets.jellyfin.nowPlaying")}
        </h3>
        {data.nowPlaying.length === 0 ? (
          <p className="jf-none">{t("widgets.jellyfin.nothingPlaying")}</p>
        ) : (
          <ul className="jf-sessions">
            {data.nowPlaying.map((playing) => (
              <PlayingRow key={playing.id} playing={playing} />
            ))}
          </ul>
        )}
        {more > 0 && <p className="jf-none">{t("widgets.jellyfin.more", { count: more })}</p>}
      </section>
      {data.latest && (
        <section className="jf-part" aria-labelledby={`jf-latest-${widgetId}`}>
          <h3 className="jf-heading" id={`jf-latest-${widgetId}`}>
            {data.latestFor
              ? t("widgets.jellyfin.latestFor", { user: data.latestFor })
              : t("widgets.jellyfin.latest")}
          </h3>
          {data.latest.length === 0 ? (
            <p className="jf-none">{t("widgets.jellyfin.nothingNew")}</p>
          ) : (
            <ul className="jf-latest">
              {data.latest.map((item) => (
                <LatestItem key={item.id} item={item} widgetId={widgetId} source={source} />
              ))}
            </ul>
          )}
        </section>
      )}
    </section>
  );
}

export default function JellyfinView({
  widget,
  config,
  readOnly,
  openSettings,
}: WidgetProps<JellyfinConfig>) {
  const { t } = useTranslation();
  const data = useIntegrationData<JellyfinData>({
    widget,
    asks: contract.data.visitorQuery(config),
    name: "jellyfin",
    refreshMs: JELLYFIN_REFRESH_MS,
  });
  return (
    <IntegrationFrame
      data={data}
      readOnly={readOnly}
      openSettings={openSettings}
      empty={{
        icon: "video",
        text: t("widgets.jellyfin.empty"),
        readOnlyText: t("widgets.jellyfin.emptyReadOnly"),
        setUp: t("widgets.jellyfin.setUp"),
      }}
      errorTitle={t("widgets.jellyfin.couldNotLoad")}
      describeError={describeJellyfinError}
      label={t("widgets.jellyfin.dataLabel")}
      upstream={{ service: "Jellyfin" }}
    >
      {(shown) => <Media data={shown} widgetId={widget.id} />}
    </IntegrationFrame>
  );
}
