import { useState } from "react";
import { Icon } from "../ui/icons";
import { DashboardNameDialog } from "./dashboards";

export function EmptyDashboards() {
  const [open, setOpen] = useState(false);
  return (
    <section className="empty-page">
      <div className="empty-illustration" aria-hidden="true">
        <span />
        <span />
        <span />
        <span />
      </div>
      <h1>No dashboards yet</h1>
      <p className="muted">
        A dashboard is a canvas of widgets: clocks, countdowns, todos, notes, boards and more. Make one for
        work, one for home, one for that trip.
      </p>
      <button type="button" className="button primary" onClick={() => setOpen(true)}>
        <Icon name="plus" size={16} /> Create a dashboard
      </button>
      {open && <DashboardNameDialog open mode="create" onClose={() => setOpen(false)} />}
    </section>
  );
}
