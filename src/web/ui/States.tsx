import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { describeError } from "../lib/api";
import { Icon } from "./icons";

export function Skeleton({
  width,
  height,
  className = "",
}: {
  width?: number | string;
  height?: number | string;
  className?: string;
}) {
  return <span className={`skeleton ${className}`} style={{ width, height }} aria-hidden="true" />;
}

export function ErrorState({
  error,
  onRetry,
  title,
  message,
}: {
  error: unknown;
  onRetry?(): void;
  title?: string;
  /** What went wrong, when the caller can say it better than the generic description. */
  message?: string;
}) {
  const { t } = useTranslation();
  return (
    <div className="error-state" role="alert">
      <Icon name="alert" size={22} />
      <strong>{title ?? t("ui.error.title")}</strong>
      <p>{message ?? describeError(error)}</p>
      {onRetry && (
        <button type="button" className="button" onClick={onRetry}>
          <Icon name="refresh" size={16} /> {t("ui.error.tryAgain")}
        </button>
      )}
    </div>
  );
}

/** A query's failure, with Try again fetching it anew. */
export function QueryError({
  query,
  title,
}: {
  query: { error: unknown; refetch(): unknown };
  title?: string;
}) {
  return <ErrorState error={query.error} title={title} onRetry={() => void query.refetch()} />;
}

/**
 * A fetched list in its states: a placeholder while it loads, the failure with Try again, a
 * line when it is empty, else what `children` draws of it.
 */
export function QueryList<T>({
  query,
  placeholderHeight,
  failed,
  empty,
  children,
}: {
  query: {
    isPending: boolean;
    isError: boolean;
    error: unknown;
    data: readonly T[] | undefined;
    refetch(): unknown;
  };
  placeholderHeight: number;
  failed: string;
  empty: string;
  children(items: readonly T[]): ReactNode;
}) {
  if (query.isPending) return <Skeleton height={placeholderHeight} width="100%" />;
  if (query.isError || !query.data) return <QueryError query={query} title={failed} />;
  if (query.data.length === 0) return <p className="muted empty-line">{empty}</p>;
  return children(query.data);
}

export function Spinner({ label }: { label?: string }) {
  const { t } = useTranslation();
  return <span className="spinner" role="status" aria-label={label ?? t("ui.spinner")} />;
}

export function EmptyHint({
  icon,
  title,
  children,
}: {
  icon: ReactNode;
  title: string;
  children?: ReactNode;
}) {
  return (
    <div className="empty-hint">
      <div className="empty-hint-icon">{icon}</div>
      <strong>{title}</strong>
      {children}
    </div>
  );
}
