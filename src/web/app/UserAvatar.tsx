import { useState } from "react";
import { initialsOf } from "./PresenceBar";

/**
 * The user's picture, or their initials when they have none (or it fails to load). Decorative:
 * whatever holds it names the person.
 */
export function UserAvatar({
  name,
  image,
  className = "",
}: {
  name: string;
  image: string | null | undefined;
  className?: string;
}) {
  const [broken, setBroken] = useState<string | null>(null);
  const classes = `avatar ${className}`.trim();
  if (image && broken !== image)
    return <img className={classes} src={image} alt="" aria-hidden="true" onError={() => setBroken(image)} />;
  return <span className={classes} aria-hidden="true" data-initials={initialsOf(name) || "?"} />;
}
