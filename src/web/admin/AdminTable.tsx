import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";

/** The administration's tables: a caption for screen readers, the column heads, then a last column of actions. */
export function AdminTable({
  caption,
  columns,
  className,
  children,
}: {
  caption: string;
  columns: string[];
  className?: string;
  children: ReactNode;
}) {
  const { t } = useTranslation();
  return (
    <div className="table-wrap">
      <table className={className ? `admin-table ${className}` : "admin-table"}>
        <caption className="visually-hidden">{caption}</caption>
        <thead>
          <tr>
            {columns.map((column) => (
              <th key={column} scope="col">
                {column}
              </th>
            ))}
            <th scope="col">
              <span className="visually-hidden">{t("admin.actions")}</span>
            </th>
          </tr>
        </thead>
        <tbody>{children}</tbody>
      </table>
    </div>
  );
}
