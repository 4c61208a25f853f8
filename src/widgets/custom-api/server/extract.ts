import {
  CUSTOM_API_ROWS_MAX,
  type CustomApiData,
  type CustomApiQuery,
  type CustomApiValue,
} from "../contract.js";
import { runQuery } from "../query.js";

/** A field's text at most this long; a table cell's shorter. */
const TEXT_MAX = 500;
const CELL_MAX = 200;
/** An object or array a query picked is shown as JSON text this long at most. */
const JSON_TEXT_MAX = 200;
const ERROR_MAX = 300;

const cut = (text: string, max: number) => (text.length > max ? `${text.slice(0, max - 1)}…` : text);

/**
 * A query's result as the widget answers it: JSON scalars stay as they are (numbers stay numbers,
 * for the browser to format); objects and arrays become short JSON text; everything is bounded.
 */
export function answerValue(raw: unknown, max = TEXT_MAX): CustomApiValue {
  if (raw === null || raw === undefined) return null;
  if (typeof raw === "string") return cut(raw, max);
  if (typeof raw === "number") return Number.isFinite(raw) ? raw : null;
  if (typeof raw === "boolean") return raw;
  return cut(JSON.stringify(raw) ?? "null", Math.min(max, JSON_TEXT_MAX));
}

const failure = (error: unknown) => cut(error instanceof Error ? error.message : String(error), ERROR_MAX);

/**
 * Runs the widget's queries on the service's JSON: one value per field, and the list's rows (at
 * most CUSTOM_API_ROWS_MAX, each column's query run on one item). A query that fails at run time
 * (a function given the wrong type) says why in its field, not by failing the others.
 */
export function extract(json: unknown, query: Pick<CustomApiQuery, "fields" | "list">): CustomApiData {
  const fields = query.fields.map(({ id, label, query: expression, format, unit }) => {
    const base = { id, label, format, unit: unit || null };
    try {
      return { ...base, value: answerValue(runQuery(json, expression)) };
    } catch (error) {
      return { ...base, value: null, error: failure(error) };
    }
  });
  if (!query.list) return { fields };
  let items: unknown;
  try {
    items = runQuery(json, query.list.query);
  } catch (error) {
    return { fields, rows: [], rowsTotal: 0, listError: failure(error) };
  }
  if (!Array.isArray(items)) {
    const what = items === null ? "nothing" : typeof items === "object" ? "an object" : `a ${typeof items}`;
    return { fields, rows: [], rowsTotal: 0, listError: `The list query gave ${what}, not a list` };
  }
  const rows = items.slice(0, CUSTOM_API_ROWS_MAX).map((item) => {
    const row: Record<string, CustomApiValue> = {};
    for (const column of query.list!.columns) {
      try {
        row[column.id] = answerValue(runQuery(item, column.query), CELL_MAX);
      } catch {
        // One odd item (a missing key given to a function) leaves its cell empty, not the table.
        row[column.id] = null;
      }
    }
    return row;
  });
  return { fields, rows, rowsTotal: items.length };
}
