import type { ReactNode } from "react";

/** One row of a list widget's sample: its mark (a dot, a tick, an icon), then its words. */
export interface PreviewRow {
  text: ReactNode;
  /** The row's React key; its text when that is a string. */
  key?: string;
  mark?: ReactNode;
  /** A state class the row is drawn in ("is-done", "is-unread"). */
  state?: string;
}

/** The picker's small static picture of a list widget: an optional heading, then a few rows. */
export function PreviewList({ heading, rows }: { heading?: string; rows: PreviewRow[] }) {
  return (
    <div className="preview preview-list">
      {heading && <span className="preview-heading">{heading}</span>}
      {rows.map((row) => (
        <div
          key={row.key ?? String(row.text)}
          className={row.state ? `preview-row ${row.state}` : "preview-row"}
        >
          {row.mark}
          {row.text}
        </div>
      ))}
    </div>
  );
}
