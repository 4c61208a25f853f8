import { Component, type ReactNode } from "react";
import { t } from "../i18n/i18n";
import { ErrorState } from "./States";

interface Props {
  children: ReactNode;
  title?: string;
}

/** One broken widget must not take the dashboard down: it shows an error with a retry instead. */
export class ErrorBoundary extends Component<Props, { error: unknown }> {
  override state: { error: unknown } = { error: null };

  static getDerivedStateFromError(error: unknown) {
    return { error };
  }

  override render() {
    if (this.state.error) {
      return (
        <ErrorState
          title={this.props.title ?? t("ui.error.widgetCrashed")}
          error={this.state.error}
          onRetry={() => this.setState({ error: null })}
        />
      );
    }
    return this.props.children;
  }
}
