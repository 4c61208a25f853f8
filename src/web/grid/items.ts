import { LAYOUT_KEY, parseLayouts } from "../../contract/layout";
import type { Widget } from "../../contract/resources";
import { definitionFor } from "../widget-kit/registry";
import { cellOfPixels, type LayoutItem } from "./geometry";

type Placed = Pick<Widget, "id" | "widgetType" | "positionX" | "positionY" | "width" | "height" | "config">;

/** What the layout maths needs of a stored widget: its cells and its type's smallest size. */
export function layoutItemOf(widget: Placed): LayoutItem {
  const { minSize } = definitionFor(widget.widgetType);
  const config = widget.config as Record<string, unknown> | null | undefined;
  return {
    id: widget.id,
    xl: cellOfPixels(widget),
    layouts: parseLayouts(config?.[LAYOUT_KEY]),
    min: { w: minSize.columns, h: minSize.rows },
  };
}

/**
 * A widget's new config with the grid's cells of the stored one: components and the settings
 * panel replace the config as a whole and never carry the layout key themselves.
 */
export function keepLayout(raw: unknown, next: Record<string, unknown>): Record<string, unknown> {
  const { [LAYOUT_KEY]: _dropped, ...rest } = next;
  const layout = (raw as Record<string, unknown> | null | undefined)?.[LAYOUT_KEY];
  return layout === undefined ? rest : { ...rest, [LAYOUT_KEY]: layout };
}
