import { useTranslation } from "react-i18next";
import type { WidgetType } from "../../../widgets/index";
import { isRecord } from "../../lib/parse";
import type { WidgetDefinition } from "../types";
import { WidgetEmpty } from "../WidgetEmpty";

function NoPreview() {
  return null;
}

function Unsupported() {
  const { t } = useTranslation();
  return <WidgetEmpty text={t("widgets.unsupported.text")} />;
}

export function unsupportedWidget(type: string): WidgetDefinition<object> {
  return {
    type: type as WidgetType,
    // Named by its type in every language, as its card is.
    words: () => ({ name: type, description: "" }),
    group: "content",
    keywords: [],
    icon: "layout",
    defaultSize: { columns: 5, rows: 10 },
    minSize: { columns: 3, rows: 6 },
    defaultConfig: () => ({}),
    parseConfig: (raw) => (isRecord(raw) ? raw : {}),
    Component: Unsupported,
    Preview: NoPreview,
  };
}
