import { lazy, Suspense } from "react";
import { Skeleton } from "../../../web/ui/States";
import type { WidgetSettingsProps } from "../../../web/widget-kit/types";
import type { CustomApiConfig } from "../contract";

// The form (its tree, its editors and JMESPath itself) loads when the settings open.
const Panel = lazy(() => import("./SettingsPanel"));

export function CustomApiSettings(props: WidgetSettingsProps<CustomApiConfig>) {
  return (
    <Suspense fallback={<Skeleton height={120} width="100%" />}>
      <Panel {...props} />
    </Suspense>
  );
}
