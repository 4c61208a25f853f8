import { useTranslation } from "react-i18next";
import { useNow } from "../../../web/lib/use-now";
import { Icon } from "../../../web/ui/icons";
import type { CustomApiConfig, CustomApiData } from "../contract";
import { FormattedValue } from "./Value";

type Field = CustomApiData["fields"][number];

function FieldError({ field }: { field: Field }) {
  const { t } = useTranslation();
  return (
    <span className="capi-field-error" title={field.error}>
      <Icon name="alert" size={13} /> {t("widgets.customAPI.queryFailed")}
    </span>
  );
}

function Stats({ fields, now }: { fields: Field[]; now: number }) {
  return (
    <dl className="capi-stats">
      {fields.map((field) => (
        <div key={field.id} className="capi-stat">
          <dt>{field.label || field.id}</dt>
          <dd>
            {field.error ? (
              <FieldError field={field} />
            ) : (
              <FormattedValue value={field.value} format={field.format} unit={field.unit} now={now} />
            )}
          </dd>
        </div>
      ))}
    </dl>
  );
}

type Columns = NonNullable<CustomApiConfig["list"]>["columns"];

function Rows({
  data,
  columns,
  table,
  now,
}: {
  data: CustomApiData;
  columns: Columns;
  table: boolean;
  now: number;
}) {
  const { t } = useTranslation();
  const rows = data.rows ?? [];
  if (data.listError)
    return (
      <p className="capi-field-error" title={data.listError}>
        <Icon name="alert" size={13} /> {t("widgets.customAPI.listFailed")}
      </p>
    );
  if (rows.length === 0) return <p className="widget-empty">{t("widgets.customAPI.noRows")}</p>;
  const more = (data.rowsTotal ?? rows.length) - rows.length;
  const cell = (row: (typeof rows)[number], column: Columns[number]) => (
    <FormattedValue value={row[column.id] ?? null} format={column.format} now={now} />
  );
  return (
    <>
      {table ? (
        <div className="capi-table-wrap">
          <table className="capi-table">
            <thead>
              <tr>
                {columns.map((column) => (
                  <th key={column.id} scope="col">
                    {column.label || column.query}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {rows.map((row, i) => (
                // Rows have no ids of their own: the service's order is their identity.
                // biome-ignore lint/suspicious/noArrayIndexKey: see above
                <tr key={i}>
                  {columns.map((column) => (
                    <td key={column.id}>{cell(row, column)}</td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : (
        <ul className="capi-list">
          {rows.map((row, i) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: rows have no ids of their own
            <li key={i}>
              {columns.map((column, c) => (
                <span key={column.id} className={c === 0 ? "capi-list-main" : "capi-list-meta"}>
                  {c > 0 && column.label && <span className="visually-hidden">{column.label}: </span>}
                  {cell(row, column)}
                </span>
              ))}
            </li>
          ))}
        </ul>
      )}
      {more > 0 && <p className="capi-more">{t("widgets.customAPI.moreRows", { count: more })}</p>}
    </>
  );
}

/** The picked values: big numbers with labels, and the list as a list or a table below them. */
export function CustomApiValues({ data, config }: { data: CustomApiData; config: CustomApiConfig }) {
  const now = useNow(30_000).getTime();
  const columns = config.list?.columns ?? [];
  return (
    <div className="capi">
      {data.fields.length > 0 && <Stats fields={data.fields} now={now} />}
      {data.rows !== undefined && columns.length > 0 && (
        <Rows data={data} columns={columns} table={config.display === "table"} now={now} />
      )}
    </div>
  );
}
