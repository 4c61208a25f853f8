import { t } from "../../../web/i18n/i18n";
import { ApiError, describeError } from "../../../web/lib/api";
import { appLocale, formatNumber, relativeTime } from "../../../web/widget-kit/data/format";
import type { ContainerHealth, ContainerState, DockerContainer } from "../contract";

/** The dot's colour: its word beside it says the same, so colour only helps. */
export type Tone = "good" | "warn" | "bad" | "off";

export function toneOf(container: DockerContainer): Tone {
  if (!container.found) return "off";
  switch (container.state) {
    case "running":
      if (container.health === "unhealthy") return "bad";
      return container.health === "starting" ? "warn" : "good";
    case "paused":
    case "restarting":
    case "removing":
      return "warn";
    case "dead":
      return "bad";
    case "exited":
      return container.exitCode ? "bad" : "off";
    default:
      return "off";
  }
}

export function stateWord(state: ContainerState): string {
  switch (state) {
    case "running":
      return t("widgets.docker.states.running");
    case "created":
      return t("widgets.docker.states.created");
    case "paused":
      return t("widgets.docker.states.paused");
    case "restarting":
      return t("widgets.docker.states.restarting");
    case "exited":
      return t("widgets.docker.states.exited");
    case "removing":
      return t("widgets.docker.states.removing");
    case "dead":
      return t("widgets.docker.states.dead");
    case "unknown":
      return t("widgets.docker.states.unknown");
  }
}

export function healthWord(health: ContainerHealth): string {
  switch (health) {
    case "healthy":
      return t("widgets.docker.health.healthy");
    case "unhealthy":
      return t("widgets.docker.health.unhealthy");
    case "starting":
      return t("widgets.docker.health.starting");
  }
}

/** "4 days", "3 hours", "5 minutes": how long, in the reader's language, in its largest unit. */
export function duration(ms: number, locale = appLocale()): string {
  const minutes = Math.max(0, Math.floor(ms / 60_000));
  const [value, unit] =
    minutes < 60
      ? [minutes, "minute"]
      : minutes < 48 * 60
        ? [Math.floor(minutes / 60), "hour"]
        : [Math.floor(minutes / 1440), "day"];
  return formatNumber(value, locale, { style: "unit", unit, unitDisplay: "long" });
}

/**
 * What a row says after its name: the state (with the exit code when it failed), the health
 * check's verdict, and for how long it has been up (or since when it is down).
 */
export function summaryOf(container: DockerContainer, now: number, locale = appLocale()): string {
  if (!container.found) return t("widgets.docker.notFound");
  const parts: string[] = [];
  if (container.state === "exited" && container.exitCode)
    parts.push(t("widgets.docker.exitedWith", { code: container.exitCode }));
  else parts.push(stateWord(container.state));
  if (container.health && container.state === "running") parts.push(healthWord(container.health));
  const upMs = container.startedAt ? now - Date.parse(container.startedAt) : null;
  if (container.state === "running" && upMs !== null && upMs < 60_000)
    parts.push(t("widgets.docker.justStarted"));
  else if (container.state === "running" && container.startedAt)
    parts.push(
      t("widgets.docker.upFor", { duration: duration(now - Date.parse(container.startedAt), locale) }),
    );
  else if (container.state === "exited" && container.finishedAt)
    parts.push(relativeTime(Date.parse(container.finishedAt), now));
  return parts.join(" · ");
}

/** "25 %", "0.4 %": CPU as `docker stats` counts it (100 % is one whole core). */
export function cpuWords(percent: number, locale = appLocale()): string {
  return formatNumber(percent / 100, locale, {
    style: "percent",
    maximumFractionDigits: percent < 10 ? 1 : 0,
  });
}

/** "400 MiB", "1.5 GiB": memory in binary units, as `docker stats` writes it. */
export function bytesWords(bytes: number, locale = appLocale()): string {
  const units = ["B", "KiB", "MiB", "GiB", "TiB"];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  const digits = value < 10 && unit > 0 ? 1 : 0;
  return `${formatNumber(value, locale, { maximumFractionDigits: digits })} ${units[unit]}`;
}

/** The app tiles by group, groups in the order first met, the ungrouped first. */
export function appGroups(containers: readonly DockerContainer[]) {
  const groups = new Map<string | null, DockerContainer[]>();
  groups.set(null, []);
  for (const container of containers) {
    const group = container.app?.group ?? null;
    const list = groups.get(group) ?? [];
    list.push(container);
    groups.set(group, list);
  }
  return [...groups]
    .filter(([, list]) => list.length > 0)
    .map(([name, list]) => ({ name, containers: list }));
}

/** The initial of a tile without an icon. */
export const initialOf = (name: string) => (name.trim()[0] ?? "?").toUpperCase();

/**
 * Why the widget has no containers, in the reader's language from the problem's code, with the
 * server's detail (which names the integration and what Docker or its proxy answered) as fine print.
 */
export function describeDockerError(error: unknown): { message: string; detail: string | null } {
  if (!(error instanceof ApiError)) return { message: describeError(error), detail: null };
  const detail = error.problem?.detail ?? null;
  switch (error.code) {
    case "not_found":
      return { message: t("widgets.docker.errors.gone"), detail: null };
    case "address_not_allowed":
      return { message: t("widgets.docker.errors.private"), detail };
    case "upstream_timeout":
      return { message: t("widgets.docker.errors.slow"), detail };
    case "upstream_failed":
      return { message: t("widgets.docker.errors.failed"), detail };
    default:
      return { message: describeError(error), detail: null };
  }
}

/** An action's failure: the server's detail (Docker's or its proxy's refusal) when it has one. */
export function actionFailure(error: unknown): string {
  if (error instanceof ApiError && error.problem?.detail) return error.problem.detail;
  return describeError(error);
}
