import { useMutation } from "@tanstack/react-query";
import { useTranslation } from "react-i18next";
import type { Preview, PreviewBody } from "../../../contract/integrations";
import { request } from "../../../web/lib/api";
import { newId } from "../../../web/lib/ids";
import { Icon } from "../../../web/ui/icons";
import type { WidgetSettingsProps } from "../../../web/widget-kit/types";
import {
  CUSTOM_API_COLUMNS_MAX,
  CUSTOM_API_FIELDS_MAX,
  type CustomApiConfig,
  type CustomApiFormat,
} from "../contract";
import { describeCustomApiError } from "./errors";
import { ColumnRows, FieldRows, QueryInput } from "./FieldRows";
import { instantOf } from "./format";
import { JsonTree, type TreeActions } from "./JsonTree";
import { useJmespath } from "./jmespath";
import { columnCandidates, labelFor, pathOf } from "./paths";
import { SourcePicker } from "./SourcePicker";

/** Numbers that name rather than count (a port, an id, a year): no thousands separators. */
const NAMING_KEY = /(^|[^a-z])(id|port|year|code|pid|uid|gid)$/i;

/** A first guess at a value's format; the person changes it in the row. */
function guessFormat(value: unknown, key?: string | number): CustomApiFormat {
  if (typeof value === "boolean") return "status";
  if (typeof value === "number") return typeof key === "string" && NAMING_KEY.test(key) ? "text" : "number";
  if (typeof value === "string" && /^\d{4}-\d{2}-\d{2}T/.test(value) && instantOf(value) !== null)
    return "date";
  return "text";
}

/**
 * The Custom API widget's settings: the service, a preview of its JSON to pick values from, and
 * the fields and list the picks became (each query checked as it is typed).
 */
export default function SettingsPanel({ config, onChange }: WidgetSettingsProps<CustomApiConfig>) {
  const { t } = useTranslation();
  const jmes = useJmespath();
  const preview = useMutation({
    mutationFn: (body: PreviewBody) => request<Preview>("POST", "/api/integrations/preview", body),
  });
  const json = preview.data?.json;
  const canPreview = Boolean(config.integrationId || config.url);
  const load = () =>
    preview.mutate(
      config.integrationId
        ? { integrationId: config.integrationId, ...(config.path ? { path: config.path } : {}) }
        : { url: config.url! },
    );

  const actions: TreeActions = {
    pick(path, value) {
      if (config.fields.length >= CUSTOM_API_FIELDS_MAX) return;
      onChange({
        ...config,
        fields: [
          ...config.fields,
          {
            id: newId(),
            label: labelFor(path),
            query: pathOf(path),
            format: guessFormat(value, path.at(-1)),
          },
        ],
      });
    },
    list(path, items) {
      const columns = columnCandidates(items)
        .slice(0, 4)
        .map((segments) => ({
          id: newId(),
          label: segments.length ? labelFor(segments) : t("widgets.customAPI.list.value"),
          query: pathOf(segments),
          format: guessFormat(
            segments.reduce<unknown>((v, k) => (v as Record<string | number, unknown>)?.[k], items[0]),
            segments.at(-1),
          ),
        }));
      onChange({
        ...config,
        display: config.display === "stats" ? "table" : config.display,
        list: { query: pathOf(path), columns },
      });
    },
  };

  const listItems = (() => {
    if (!config.list || json === undefined || !jmes) return undefined;
    try {
      const items = jmes.runQuery(json, config.list.query);
      return Array.isArray(items) ? items : undefined;
    } catch {
      return undefined;
    }
  })();
  const failure = preview.isError ? describeCustomApiError(preview.error) : null;

  return (
    <div className="capi-settings">
      <SourcePicker config={config} onChange={onChange} />

      <section className="capi-section" aria-labelledby="capi-preview-title">
        <div className="capi-section-head">
          <h3 id="capi-preview-title">{t("widgets.customAPI.preview.title")}</h3>
          <button
            type="button"
            className="button small"
            disabled={!canPreview || preview.isPending}
            onClick={load}
          >
            <Icon name="refresh" size={14} />{" "}
            {preview.isPending ? t("widgets.customAPI.preview.loading") : t("widgets.customAPI.preview.load")}
          </button>
        </div>
        {!canPreview && <p className="field-hint">{t("widgets.customAPI.preview.needSource")}</p>}
        {failure && (
          <div className="capi-preview-error" role="alert">
            <p>{failure.message}</p>
            {failure.detail && <p className="capi-error-detail">{failure.detail}</p>}
          </div>
        )}
        {preview.data && (
          <>
            <p className="field-hint">
              {t("widgets.customAPI.preview.hint")}{" "}
              {preview.data.truncated && t("widgets.customAPI.preview.truncated")}
            </p>
            <div className="capi-tree-frame">
              <JsonTree json={json} actions={actions} />
            </div>
          </>
        )}
      </section>

      <section className="capi-section" aria-labelledby="capi-fields-title">
        <div className="capi-section-head">
          <h3 id="capi-fields-title">{t("widgets.customAPI.fields.title")}</h3>
          <button
            type="button"
            className="button small"
            disabled={config.fields.length >= CUSTOM_API_FIELDS_MAX}
            onClick={() =>
              onChange({
                ...config,
                fields: [...config.fields, { id: newId(), label: "", query: "", format: "text" }],
              })
            }
          >
            <Icon name="plus" size={14} /> {t("widgets.customAPI.fields.add")}
          </button>
        </div>
        {config.fields.length === 0 ? (
          <p className="field-hint">{t("widgets.customAPI.fields.none")}</p>
        ) : (
          <FieldRows
            fields={config.fields}
            onChange={(fields) => onChange({ ...config, fields })}
            jmes={jmes}
            json={json}
          />
        )}
        <p className="field-hint">{t("widgets.customAPI.fields.formatsHint")}</p>
      </section>

      <section className="capi-section" aria-labelledby="capi-list-title">
        <div className="capi-section-head">
          <h3 id="capi-list-title">{t("widgets.customAPI.list.title")}</h3>
          {config.list ? (
            <button
              type="button"
              className="button small"
              onClick={() => {
                const { list: _list, ...rest } = config;
                onChange({ ...rest, display: "stats" });
              }}
            >
              {t("widgets.customAPI.list.remove")}
            </button>
          ) : (
            <button
              type="button"
              className="button small"
              onClick={() => onChange({ ...config, list: { query: "", columns: [] } })}
            >
              <Icon name="plus" size={14} /> {t("widgets.customAPI.list.add")}
            </button>
          )}
        </div>
        {!config.list ? (
          <p className="field-hint">{t("widgets.customAPI.list.none")}</p>
        ) : (
          <>
            <QueryInput
              label={t("widgets.customAPI.list.query")}
              query={config.list.query}
              onChange={(query) => onChange({ ...config, list: { ...config.list!, query } })}
              jmes={jmes}
              json={json}
              format="text"
            />
            {listItems && (
              <p className="field-hint">{t("widgets.customAPI.list.found", { count: listItems.length })}</p>
            )}
            <ColumnRows
              columns={config.list.columns}
              onChange={(columns) => onChange({ ...config, list: { ...config.list!, columns } })}
              jmes={jmes}
              firstItem={listItems?.[0]}
            />
            <button
              type="button"
              className="button small"
              disabled={config.list.columns.length >= CUSTOM_API_COLUMNS_MAX}
              onClick={() =>
                onChange({
                  ...config,
                  list: {
                    ...config.list!,
                    columns: [...config.list!.columns, { id: newId(), label: "", query: "", format: "text" }],
                  },
                })
              }
            >
              <Icon name="plus" size={14} /> {t("widgets.customAPI.list.addColumn")}
            </button>
          </>
        )}
      </section>
    </div>
  );
}
