import { getTableColumns } from "drizzle-orm";
import { type Widget, WidgetSchema } from "../../contract/resources.js";
import { jsonShape } from "./json.js";
import { widgets } from "./schema.js";

/**
 * The Widget JSON of a row, shared by every module that reads widget rows (a dashboard's delete
 * reports the widgets that went with it; history and alerts read them too). Widget types and
 * configs were checked when they were written.
 */
export const widgetShape = jsonShape(WidgetSchema, getTableColumns(widgets));
export const toWidget = (row: typeof widgets.$inferSelect) => widgetShape.fromRow(row) as Widget;
