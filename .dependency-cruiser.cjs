/**
 * Import layering, checked in CI (`npm run lint:layers`). Arrows run downward only:
 *   contract  <-  server core (config, db, http, upstream, policies, ratelimit)
 *             <-  server features (auth, bootstrap, resources/<name>, notifications, realtime, exchange,
 *                 providers, weather, jobs, web)  <-  app.ts / main.ts
 *   contract  <-  web (the SPA never reaches into the server)
 */
const FEATURES =
  "(auth|bootstrap|resources|notifications|realtime|exchange|providers|weather|feeds|icons|portability|jobs|web)";

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: "web-never-imports-server",
      comment: "The browser bundle must not carry server code (or its secrets).",
      severity: "error",
      from: { path: "^src/web/" },
      to: { path: "^src/server/" },
    },
    {
      name: "contract-imports-nothing-of-ours",
      comment: "The contract is shared by server and web; it depends on libraries only.",
      severity: "error",
      from: { path: "^src/contract/" },
      to: { path: "^src/(server|web)/" },
    },
    {
      name: "resources-are-independent",
      comment: "A resource does not reach into another; shared decisions live in policies/.",
      severity: "error",
      from: { path: "^src/server/resources/([^/]+)/" },
      to: { path: "^src/server/resources/", pathNot: "^src/server/resources/$1/" },
    },
    {
      name: "nothing-imports-up-into-routes",
      comment:
        "Route plugins are leaves: only app.ts, or the route plugin of a parent folder, registers them.",
      severity: "error",
      from: { pathNot: "(^src/server/app\\.ts$|/routes\\.ts$)" },
      to: { path: "/routes\\.ts$" },
    },
    {
      name: "core-does-not-import-features",
      comment: "config, db, http, upstream, policies and ratelimit sit below every feature.",
      severity: "error",
      from: { path: "^src/server/(config\\.ts$|db/|http/|upstream/|policies/|ratelimit/)" },
      to: { path: [`^src/server/${FEATURES}/`, "^src/server/(app|main)\\.ts$"] },
    },
    {
      name: "auth-does-not-call-up",
      comment: "Authentication knows sessions, not the resources a sign-up leads to.",
      severity: "error",
      from: { path: "^src/server/auth/" },
      to: { path: "^src/server/(resources|notifications|exchange|providers|weather)/" },
    },
    {
      name: "nothing-imports-the-entry-points",
      severity: "error",
      from: { pathNot: "^(test|e2e|bench)/|^src/server/main\\.ts$" },
      to: { path: "^src/server/(app|main)\\.ts$" },
    },
    {
      name: "no-circular",
      severity: "error",
      from: {},
      to: { circular: true },
    },
  ],
  options: {
    doNotFollow: { path: "node_modules" },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: "tsconfig.json" },
    enhancedResolveOptions: {
      exportsFields: ["exports"],
      conditionNames: ["import", "require", "node", "default"],
    },
  },
};
