import type { ReactNode } from "react";
import type { IconName } from "../../ui/icons";
import { ErrorState } from "../../ui/States";
import { WidgetEmpty } from "../WidgetEmpty";
import { DataFrame } from "./DataFrame";
import type { Upstream } from "./errors";
import type { IntegrationData } from "./integration-data";
import "./integration-frame.css";

/**
 * The view of a widget that reads an integration: what to do while its config asks for nothing
 * yet, the failure in the widget's own words (with the server's detail as fine print for an
 * editor) while there is nothing to show, and otherwise the data in a DataFrame.
 */
export function IntegrationFrame<D>({
  data: { asks, query },
  readOnly,
  openSettings,
  empty,
  errorTitle,
  describeError,
  label,
  upstream,
  children,
}: {
  data: IntegrationData<D>;
  readOnly: boolean;
  openSettings(): void;
  /** Translated: the words while nothing is set up, for an editor and for a viewer, and the button. */
  empty: { icon: IconName; text: string; readOnlyText: string; setUp: string };
  /** Translated: "Couldn't load the containers". */
  errorTitle: string;
  describeError(error: unknown): { message: string; detail: string | null };
  /** Translated, for the DataFrame: what the data is. */
  label: string;
  upstream: Upstream;
  children(data: D): ReactNode;
}) {
  if (!asks)
    return (
      <WidgetEmpty
        icon={empty.icon}
        text={readOnly ? empty.readOnlyText : empty.text}
        action={readOnly ? undefined : { label: empty.setUp, onClick: openSettings }}
      />
    );
  if (query.data === undefined && query.isError) {
    const { message, detail } = describeError(query.error);
    return (
      <div className="integration-error">
        <ErrorState
          error={query.error}
          title={errorTitle}
          message={message}
          onRetry={readOnly ? undefined : () => void query.refetch()}
        />
        {detail && !readOnly && <p className="integration-error-detail">{detail}</p>}
      </div>
    );
  }
  return (
    <DataFrame query={query} label={label} upstream={upstream} readOnly={readOnly}>
      {(envelope) => children(envelope.data)}
    </DataFrame>
  );
}
