import { useQuery } from "@tanstack/react-query";
import { useTranslation } from "react-i18next";
import { dataApi } from "../../../web/lib/data-api";
import { readableOn } from "../../../web/widget-kit/data/format";
import type { DockerContainer } from "../contract";
import { appGroups, initialOf, stateWord, toneOf } from "./logic";

/** A bundled icon (Simple Icons, served by our server), else the app's initial. */
function AppIcon({ slug, name }: { slug: string | null; name: string }) {
  const icon = useQuery({
    queryKey: ["icons", "bundled", slug],
    queryFn: () => dataApi.icons.get(slug ?? ""),
    enabled: slug !== null,
    // The set only changes with a server upgrade.
    staleTime: Number.POSITIVE_INFINITY,
    retry: false,
  });
  if (icon.data)
    return (
      <span
        className="docker-app-icon"
        style={{ background: `#${icon.data.hex}`, color: readableOn(icon.data.hex) }}
        aria-hidden="true"
      >
        <svg viewBox="0 0 24 24" width={20} height={20} focusable="false" aria-hidden="true">
          <path d={icon.data.path} fill="currentColor" />
        </svg>
      </span>
    );
  return (
    <span className={`docker-app-icon is-initial${icon.isLoading ? " is-loading" : ""}`} aria-hidden="true">
      {icon.isLoading ? "" : initialOf(name)}
    </span>
  );
}

function AppTile({ container }: { container: DockerContainer }) {
  const { t } = useTranslation();
  const app = container.app ?? { name: container.name, url: null, icon: null, description: null };
  const state = container.found ? stateWord(container.state) : t("widgets.docker.notFound");
  const body = (
    <>
      <AppIcon slug={app.icon} name={app.name} />
      <span className="docker-app-text">
        <span className="docker-app-name">{app.name}</span>
        {app.description && <span className="docker-app-description">{app.description}</span>}
      </span>
      <span className="docker-dot" title={state}>
        <span className="visually-hidden">{state}</span>
      </span>
    </>
  );
  return (
    <li className={`docker-app is-${toneOf(container)}`} data-container={container.name}>
      {app.url ? (
        <a className="docker-app-link" href={app.url} target="_blank" rel="noopener noreferrer">
          {body}
        </a>
      ) : (
        <span className="docker-app-link">{body}</span>
      )}
    </li>
  );
}

/** Apps found from container labels, as tiles by group, each with its container's state. */
export function AppTiles({ containers }: { containers: readonly DockerContainer[] }) {
  return (
    <>
      {appGroups(containers).map((group) => (
        <section key={group.name ?? ""} className="docker-app-group" aria-label={group.name ?? undefined}>
          {group.name && <h3 className="docker-group-name">{group.name}</h3>}
          <ul className="docker-apps">
            {group.containers.map((container) => (
              <AppTile key={container.id || `missing-${container.name}`} container={container} />
            ))}
          </ul>
        </section>
      ))}
    </>
  );
}
