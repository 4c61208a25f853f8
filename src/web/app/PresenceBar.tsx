import { type CSSProperties, useState } from "react";
import { useTranslation } from "react-i18next";
import type { Widget } from "../../contract/resources";
import type { Presence } from "../../contract/sharing";
import { usePresence } from "../lib/live-state";
import { definitionFor, widgetName } from "../widget-kit/registry";

/** Avatars shown before the rest become "+3". */
const SHOWN = 5;

/** "Ada Lovelace" → "AL", as the account menu's avatar says it. */
export function initialsOf(name: string): string {
  return name
    .trim()
    .split(/\s+/)
    .map((part) => Array.from(part)[0] ?? "")
    .join("")
    .slice(0, 2)
    .toUpperCase();
}

/** A hue of its own for each person, the same on every screen. */
export function hueOf(userId: string): number {
  let hash = 0;
  for (const char of userId) hash = (hash * 31 + (char.codePointAt(0) ?? 0)) >>> 0;
  return hash % 360;
}

function Avatar({ person }: { person: Presence }) {
  // The picture that failed, so a new one (changed in Settings › Profile) is tried again.
  const [broken, setBroken] = useState<string | null>(null);
  const image = person.image;
  if (image && broken !== image)
    return <img className="presence-avatar" src={image} alt="" onError={() => setBroken(image)} />;
  return (
    <span
      className="presence-avatar"
      data-initials={initialsOf(person.name) || "?"}
      style={{ "--presence-hue": hueOf(person.userId) } as CSSProperties}
    />
  );
}

/**
 * Who else is on the dashboard (DESIGN section 14): an avatar each (picture or initials), "Anna
 * is here" or "Ben is editing Todo" as its tooltip and for screen readers. The signed-in user is
 * not shown; nobody else, nothing shown.
 */
export function PresenceBar({ dashboardId, widgets }: { dashboardId: string; widgets: readonly Widget[] }) {
  const { t } = useTranslation();
  const others = usePresence(dashboardId);
  if (others.length === 0) return null;

  const label = (person: Presence) => {
    if (!person.editing) return t("live.presence.here", { name: person.name });
    const widget = widgets.find((w) => w.id === person.editing);
    if (!widget) return t("live.presence.editingSomething", { name: person.name });
    const definition = definitionFor(widget.widgetType);
    const title =
      definition.title?.(definition.parseConfig(widget.config)) || widgetName(widget.widgetType, t);
    return t("live.presence.editing", { name: person.name, widget: title });
  };
  const shown = others.slice(0, SHOWN);
  const rest = others.slice(SHOWN);

  return (
    <ul className="presence-bar" aria-label={t("live.presence.label")}>
      {shown.map((person) => (
        <li
          key={person.userId}
          className={person.editing ? "presence-person is-editing" : "presence-person"}
          title={label(person)}
        >
          <Avatar person={person} />
          <span className="visually-hidden">{label(person)}</span>
        </li>
      ))}
      {rest.length > 0 && (
        <li className="presence-person presence-more" title={rest.map(label).join("\n")}>
          <span
            className="presence-avatar"
            data-initials={t("live.presence.more", { number: rest.length })}
          />
          <span className="visually-hidden">{rest.map(label).join(", ")}</span>
        </li>
      )}
    </ul>
  );
}
