import { useTranslation } from "react-i18next";
import { Link } from "react-router";

export function Logo({ size = 24 }: { size?: number }) {
  return (
    <svg width={size} height={size} viewBox="0 0 32 32" aria-hidden="true" className="logo">
      <rect x="2" y="2" width="13" height="13" rx="3" fill="var(--accent)" />
      <rect x="17" y="2" width="13" height="8" rx="3" fill="var(--accent-soft-strong)" />
      <rect x="17" y="12" width="13" height="18" rx="3" fill="var(--accent)" />
      <rect x="2" y="17" width="13" height="13" rx="3" fill="var(--accent-soft-strong)" />
    </svg>
  );
}

/** The top bar's logo and name, a link home. */
export function BrandLink() {
  const { t } = useTranslation();
  return (
    <Link to="/" className="brand" aria-label={t("header.home")}>
      <Logo size={24} />
      <span className="brand-name">Tessera</span>
    </Link>
  );
}
