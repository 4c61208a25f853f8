// Starts the first screen's one request (/api/bootstrap) while the app's scripts still download;
// the app picks the answer up instead of asking again (loadSession in src/web/lib/queries.ts).
(() => {
  const path = location.pathname;
  if (/^\/(signin|signup|p\/)/.test(path)) return;
  const id = /^\/d\/([0-9a-fA-F-]{36})(?:\/|$)/.exec(path)?.[1];
  const url = id ? `/api/bootstrap?dashboardId=${encodeURIComponent(id)}` : "/api/bootstrap";
  window.__tesseraBootstrap = {
    url,
    response: fetch(url, { credentials: "same-origin", headers: { accept: "application/json" } }),
  };
})();
