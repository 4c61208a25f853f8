import { useTranslation } from "react-i18next";
import { iconSlug } from "../../../contract/icons";
import { Icon } from "../../../web/ui/icons";
import { useFocusBack } from "../../../web/widget-kit/ItemEditing";
import { BundledIconTile, useBundledIcon } from "./BundledIcon";

/**
 * A bookmark's icon in its settings row: a preview of the choice and the button that opens the
 * picker under it. Focus comes back here when the picker closes, so the keyboard is not lost.
 */
export function IconChoice({
  icon,
  name,
  open,
  onToggle,
}: {
  icon: string | undefined;
  name: string;
  open: boolean;
  onToggle(): void;
}) {
  const { t } = useTranslation();
  const button = useFocusBack(open);
  const slug = icon ? iconSlug(icon) : null;
  const title = useBundledIcon(slug).data?.title ?? slug;
  const site = (
    <span className="bookmark-glyph icon-picker-site" aria-hidden="true">
      <Icon name="globe" size={14} />
    </span>
  );
  const iconName = title ?? t("widgets.bookmark.icon.siteIconInLabel");
  return (
    <button
      ref={button}
      type="button"
      className="button ghost small icon-choice"
      aria-expanded={open}
      aria-label={t("widgets.bookmark.icon.choice", {
        name,
        icon: iconName,
      })}
      onClick={onToggle}
    >
      {slug ? <BundledIconTile slug={slug} fallback={site} /> : site}
      <span>{title ?? t("widgets.bookmark.icon.siteIcon")}</span>
      <Icon name="chevronDown" size={14} />
    </button>
  );
}
