import { lazy, Suspense, useState } from "react";
import { useTranslation } from "react-i18next";
import { Link, useMatch } from "react-router";
import type { Dashboard } from "../../contract/resources";
import { api, type SessionUser } from "../lib/api";
import { useIsAdmin, useMe } from "../lib/operators-queries";
import { sortDashboards, useDashboards } from "../lib/queries";
import { Icon, IconButton } from "../ui/icons";
import { MenuItem, Popover, PopoverTrigger } from "../ui/Popover";
import { DashboardLookDialog } from "./DashboardLookDialog";
import { menuPermissions, splitDashboards } from "./dashboard-access";
import { DashboardNameDialog, DeleteDashboardDialog } from "./dashboards";
import { BrandLink } from "./Logo";
import { NotificationBell } from "./NotificationBell";
import { HistoryDialog, ImportDialog, useDuplicate } from "./PortabilityDialogs";
import { useSettingsRoute } from "./settings-route";
import { UserAvatar } from "./UserAvatar";
import { useSignOut } from "./use-sign-out";

// The settings dialog is not needed to show a dashboard, so it loads on first open.
const SettingsDialog = lazy(() => import("./SettingsDialog"));
// So is the share dialog, which only owners and admins open.
const ShareDialog = lazy(() => import("./ShareDialog"));

type DialogState =
  | { kind: "create" }
  | { kind: "import"; file?: File }
  | { kind: "history"; dashboard: Dashboard }
  | { kind: "rename"; dashboard: Dashboard }
  | { kind: "delete"; dashboard: Dashboard }
  | { kind: "share"; dashboard: Dashboard }
  | { kind: "look"; dashboard: Dashboard }
  | null;

/** A menu entry's click: the menu closes first, then the entry does its work. */
const closingMenu = (setOpen: (open: boolean) => void) => (run: () => void) => () => {
  setOpen(false);
  run();
};

function DashboardSwitcher() {
  const { t } = useTranslation();
  const { data } = useDashboards();
  const match = useMatch("/d/:dashboardId");
  const [open, setOpen] = useState(false);
  const [dialog, setDialog] = useState<DialogState>(null);
  const list = sortDashboards(data);
  const { own, shared } = splitDashboards(list);
  const current = list.find((d) => d.id === match?.params.dashboardId);
  const isAdmin = useIsAdmin();
  const can = menuPermissions(current, isAdmin);
  const duplicate = useDuplicate();
  const menuAction = closingMenu(setOpen);
  const openDialog = (next: DialogState) => menuAction(() => setDialog(next));
  const close = () => setDialog(null);

  return (
    <div className="switcher">
      <PopoverTrigger open={open} className="switcher-button" onClick={() => setOpen((o) => !o)}>
        <Icon name="layout" size={16} />
        <span className="switcher-name">
          {current?.name ?? (list.length ? t("header.dashboards") : t("header.noDashboard"))}
        </span>
        <Icon name="chevronDown" size={16} />
      </PopoverTrigger>
      <Popover
        open={open}
        onClose={() => setOpen(false)}
        align="start"
        label={t("header.dashboards")}
        className="switcher-menu"
      >
        {own.length > 0 && (
          <nav
            aria-label={t("header.yourDashboards")}
            // A .tessera.json dropped on the list is imported (after a look at what it holds).
            onDragOver={(e) => e.preventDefault()}
            onDrop={(e) => {
              e.preventDefault();
              const file = e.dataTransfer.files[0];
              if (file) {
                setOpen(false);
                setDialog({ kind: "import", file });
              }
            }}
          >
            <ul className="menu-list">
              {own.map((d) => (
                <li key={d.id}>
                  <Link
                    to={`/d/${d.id}`}
                    className={`menu-item${d.id === current?.id ? " is-current" : ""}`}
                    aria-current={d.id === current?.id ? "page" : undefined}
                    onClick={() => setOpen(false)}
                  >
                    <span className="menu-item-label">{d.name}</span>
                    {d.isPublic && (
                      <Icon name="globe" size={14} aria-label={t("header.public")} className="muted" />
                    )}
                    {d.id === current?.id && <Icon name="check" size={15} />}
                  </Link>
                </li>
              ))}
            </ul>
          </nav>
        )}
        {shared.length > 0 && (
          <nav aria-labelledby="switcher-shared" className="switcher-shared">
            {own.length > 0 && <div className="menu-separator" />}
            <div className="menu-heading" id="switcher-shared">
              {t("switcher.shared")}
            </div>
            <ul className="menu-list">
              {shared.map((d) => (
                <li key={d.id}>
                  <Link
                    to={`/d/${d.id}`}
                    className={`menu-item${d.id === current?.id ? " is-current" : ""}`}
                    aria-current={d.id === current?.id ? "page" : undefined}
                    onClick={() => setOpen(false)}
                  >
                    <span className="menu-item-label">
                      {d.name}
                      {d.owner && <span className="switcher-owner"> · {d.owner.name}</span>}
                    </span>
                    {d.access === "viewer" && (
                      <>
                        <Icon name="eye" size={14} className="muted" />
                        <span className="visually-hidden"> ({t("switcher.viewOnly")})</span>
                      </>
                    )}
                    {d.id === current?.id && <Icon name="check" size={15} />}
                  </Link>
                </li>
              ))}
            </ul>
          </nav>
        )}
        <div className="menu-separator" />
        <MenuItem icon="plus" label={t("header.newDashboard")} onClick={openDialog({ kind: "create" })} />
        <MenuItem icon="download" label={t("header.import")} onClick={openDialog({ kind: "import" })} />
        {current && (
          <>
            {/* Only what the user's access to it allows (dashboard-access.ts). */}
            {can.rename && (
              <MenuItem
                icon="pencil"
                label={t("header.rename", { name: current.name })}
                onClick={openDialog({ kind: "rename", dashboard: current })}
              />
            )}
            {can.share && (
              <MenuItem
                icon="share"
                label={t("header.share")}
                onClick={openDialog({ kind: "share", dashboard: current })}
              >
                {current.isPublic && <span className="menu-badge">{t("header.public")}</span>}
              </MenuItem>
            )}
            {can.look && (
              <MenuItem
                icon="sun"
                label={t("look.menu")}
                onClick={openDialog({ kind: "look", dashboard: current })}
              />
            )}
            {can.duplicate && (
              <MenuItem
                icon="copy"
                label={t("header.duplicate", { name: current.name })}
                onClick={menuAction(() => void duplicate(current))}
              />
            )}
            {can.export && (
              <a
                className="menu-item"
                href={api.dashboards.exportUrl(current.id)}
                download
                onClick={() => setOpen(false)}
              >
                <Icon name="download" size={15} /> {t("header.export")}
              </a>
            )}
            {can.history && (
              <MenuItem
                icon="clock"
                label={t("header.history")}
                onClick={openDialog({ kind: "history", dashboard: current })}
              />
            )}
            {can.delete && (
              <MenuItem
                icon="trash"
                label={t("header.delete", { name: current.name })}
                danger
                onClick={openDialog({ kind: "delete", dashboard: current })}
              />
            )}
          </>
        )}
      </Popover>
      {dialog?.kind === "create" && <DashboardNameDialog mode="create" onClose={close} />}
      {dialog?.kind === "rename" && (
        <DashboardNameDialog mode="rename" dashboard={dialog.dashboard} onClose={close} />
      )}
      {dialog?.kind === "share" && (
        <Suspense fallback={null}>
          <ShareDialog dashboard={dialog.dashboard} onClose={close} />
        </Suspense>
      )}
      {dialog?.kind === "look" && <DashboardLookDialog dashboard={dialog.dashboard} onClose={close} />}
      {dialog?.kind === "import" && <ImportDialog initialFile={dialog.file} onClose={close} />}
      {dialog?.kind === "history" && <HistoryDialog dashboard={dialog.dashboard} onClose={close} />}
      {dialog?.kind === "delete" && <DeleteDashboardDialog dashboard={dialog.dashboard} onClose={close} />}
    </div>
  );
}

function UserMenu({ user }: { user: SessionUser }) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const settings = useSettingsRoute();
  const isAdmin = useIsAdmin();
  // The picture comes with /api/me (the bootstrap answer), not with the session.
  const image = useMe().data?.image;
  const menuAction = closingMenu(setOpen);

  const signOut = useSignOut();

  return (
    <div className="user-menu">
      <PopoverTrigger
        open={open}
        className="avatar-button"
        label={t("header.account", { name: user.name })}
        onClick={() => setOpen((o) => !o)}
      >
        <UserAvatar name={user.name || user.email} image={image} />
      </PopoverTrigger>
      <Popover open={open} onClose={() => setOpen(false)} label={t("header.accountMenu")}>
        <div className="user-card">
          <strong>{user.name}</strong>
          <span className="muted">{user.email}</span>
        </div>
        <div className="menu-separator" />
        <MenuItem icon="key" label={t("header.apiKeys")} onClick={menuAction(() => settings.open("keys"))} />
        <MenuItem
          icon="monitor"
          label={t("header.devices")}
          onClick={menuAction(() => settings.open("sessions"))}
        />
        {isAdmin && (
          <Link to="/admin" className="menu-item" onClick={() => setOpen(false)}>
            <Icon name="shield" size={15} /> {t("header.admin")}
          </Link>
        )}
        <div className="menu-separator" />
        <MenuItem icon="logOut" label={t("header.signOut")} onClick={() => void signOut()} />
      </Popover>
    </div>
  );
}

export function Header({ user, onOpenPalette }: { user: SessionUser; onOpenPalette(): void }) {
  const { t } = useTranslation();
  const settings = useSettingsRoute();
  return (
    <header className="topbar">
      {/* The main element takes focus (tabIndex -1), so following this link moves focus there. */}
      <a href="#main" className="skip-link">
        {t("header.skip")}
      </a>
      <BrandLink />
      <DashboardSwitcher />
      <div className="topbar-spacer" />
      <button
        type="button"
        className="palette-button"
        onClick={onOpenPalette}
        onPointerEnter={() => void import("./CommandPalette")}
        aria-label={t("header.search")}
        aria-keyshortcuts="Control+K Meta+K /"
      >
        <Icon name="search" size={15} />
        <span className="palette-button-text">{t("header.searchButton")}</span>
        <span className="palette-button-key" aria-hidden="true" data-key={t("header.searchKey")} />
      </button>
      <NotificationBell userId={user.id} />
      <IconButton
        icon="settings"
        label={t("header.settings")}
        title={t("header.settings")}
        onClick={() => settings.open()}
        onPointerEnter={() => void import("./SettingsDialog")}
      />
      <UserMenu user={user} />
      {settings.tab && (
        <Suspense fallback={null}>
          <SettingsDialog tab={settings.tab} onTab={settings.open} onClose={settings.close} />
        </Suspense>
      )}
    </header>
  );
}
