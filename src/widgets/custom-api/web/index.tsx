import { useTranslation } from "react-i18next";
import { t as translate } from "../../../web/i18n/i18n";
import { ErrorState, Skeleton } from "../../../web/ui/States";
import { DataFrame } from "../../../web/widget-kit/data/DataFrame";
import { useDataSource } from "../../../web/widget-kit/data/source";
import { useWidgetData } from "../../../web/widget-kit/data/useWidgetData";
import { defineWidget, type WidgetProps } from "../../../web/widget-kit/types";
import { WidgetEmpty } from "../../../web/widget-kit/WidgetEmpty";
import { type CustomApiConfig, customApiWidget as contract } from "../contract";
import { customApiRequest } from "./api";
import "./custom-api.css";
import { describeCustomApiError, isSaveInFlight } from "./errors";
import { CustomApiSettings } from "./Settings";
import { CustomApiValues } from "./View";

function CustomApiWidget({ widget, config, readOnly, openSettings }: WidgetProps<CustomApiConfig>) {
  const { t } = useTranslation();
  const source = useDataSource();
  const asks = contract.data.visitorQuery(config);
  const query = useWidgetData({
    ...customApiRequest(source, widget.id, JSON.stringify(asks), widget.revision),
    refreshMs: config.refreshSeconds * 1000,
    enabled: asks !== null,
  });
  if (!asks)
    return (
      <WidgetEmpty
        icon="chart"
        text={readOnly ? t("widgets.customAPI.emptyReadOnly") : t("widgets.customAPI.empty")}
        action={readOnly ? undefined : { label: t("widgets.customAPI.setUp"), onClick: openSettings }}
      />
    );
  if (query.data === undefined && query.isError && isSaveInFlight(query.error))
    return (
      <div className="capi" role="status" aria-label={t("widgets.data.loading")}>
        <Skeleton height={28} width="40%" />
        <Skeleton height={14} width="80%" />
      </div>
    );
  if (query.data === undefined && query.isError) {
    const { message, detail } = describeCustomApiError(query.error);
    return (
      <div className="capi-error">
        <ErrorState
          error={query.error}
          title={t("widgets.customAPI.couldNotLoad")}
          message={message}
          onRetry={readOnly ? undefined : () => void query.refetch()}
        />
        {detail && <p className="capi-error-detail">{detail}</p>}
      </div>
    );
  }
  return (
    <DataFrame
      query={query}
      label={t("widgets.customAPI.dataLabel")}
      upstream={{ service: t("widgets.customAPI.theService") }}
      readOnly={readOnly}
    >
      {(envelope) => <CustomApiValues data={envelope.data} config={config} />}
    </DataFrame>
  );
}

function CustomApiPreview() {
  const { t } = useTranslation();
  return (
    <div className="preview preview-capi" aria-hidden="true">
      <span className="capi-preview-stat">{t("widgets.customAPI.preview.sampleCpu")}</span>
      <span className="capi-preview-stat">{t("widgets.customAPI.preview.sampleMemory")}</span>
      <span className="capi-status is-good">
        <span className="capi-dot" /> {t("widgets.customAPI.status.good")}
      </span>
    </div>
  );
}

export default defineWidget(contract, {
  group: "data",
  words: (t) => ({ name: t("widgets.customAPI.name"), description: t("widgets.customAPI.description") }),
  keywords: ["api", "json", "jmespath", "rest", "http", "homelab", "stats", "custom"],
  icon: "chart",
  defaultSize: { columns: 6, rows: 14 },
  minSize: { columns: 3, rows: 6 },
  Component: CustomApiWidget,
  settings: [
    CustomApiSettings,
    {
      key: "display",
      label: () => translate("widgets.customAPI.display.label"),
      options: [
        ["stats", () => translate("widgets.customAPI.display.stats")],
        ["list", () => translate("widgets.customAPI.display.list")],
        ["table", () => translate("widgets.customAPI.display.table")],
      ],
    },
    {
      key: "refreshSeconds",
      label: () => translate("widgets.customAPI.refresh.label"),
      hint: () => translate("widgets.customAPI.refresh.hint"),
    },
  ],
  Preview: CustomApiPreview,
  // The picker's catalogue, loaded when it opens: none of it is in the first bundle.
  templates: () =>
    import("../templates/index.js").then(({ CUSTOM_API_TEMPLATES }) =>
      CUSTOM_API_TEMPLATES.map((template) => ({
        id: template.id,
        name: template.service,
        description: template.description,
        config: { ...template.config, path: template.path },
        secretNames: template.secretNames,
      })),
    ),
});
