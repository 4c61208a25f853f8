/**
 * Import layering, checked in CI (`npm run lint:layers`). Arrows run downward only:
 *   contract (src/contract, the widget list src/widgets/index.ts, each src/widgets/<type>/contract.ts)
 *     <-  server core (config, db, http, upstream, policies, ratelimit, redis)
 *     <-  server features (every other folder of src/server) and widget server halves
 *         (src/widgets/<type>/server)  <-  app.ts / main.ts
 *   contract  <-  web (src/web and src/widgets/<type>/web: the SPA never reaches into the server)
 * A widget never imports another widget; the core reaches widgets only through the list (and the
 * registries that load each listed type's folder: src/server/widgets, src/web/widget-kit).
 * Integration kinds (src/integrations/<kind>/) are the same: `definition.ts` is contract, `server.ts`
 * a server half; the list is src/integrations/index.ts; widgets may use a kind's server half.
 */
const FEATURES =
  "(account|apikeys|audit|auth|backup|bootstrap|exchange|instance-settings|integrations|jobs|metrics|notifications|operators|portability|providers|push|realtime|resources|sharing|web|widgets)";
const CORE = "^src/server/(config\\.ts$|db/|http/|upstream/|policies/|ratelimit/|redis/)";
const CONTRACT =
  "^src/(contract/|widgets/index\\.ts$|widgets/[^/]+/contract\\.ts$|integrations/(index|kit)\\.ts$|integrations/[^/]+/definition\\.ts$)";
const SERVER_SIDE = "^src/(server/|widgets/[^/]+/server/|integrations/[^/]+/server\\.ts$)";
const WEB_SIDE = "^src/(web/|widgets/[^/]+/web/)";
const TESTS = "(^(test|e2e|bench)/|\\.test\\.tsx?$|/fake\\.ts$)";

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: "web-never-imports-server",
      comment: "The browser bundle must not carry server code (or its secrets).",
      severity: "error",
      from: { path: WEB_SIDE },
      to: { path: SERVER_SIDE },
    },
    {
      name: "server-never-imports-web",
      comment: "The server does not carry React components; what both need lives in the contract.",
      severity: "error",
      from: { path: SERVER_SIDE },
      to: { path: WEB_SIDE },
    },
    {
      name: "contract-imports-nothing-of-ours",
      comment: "The contract is shared by server and web; it depends on libraries and itself only.",
      severity: "error",
      from: { path: CONTRACT, pathNot: TESTS },
      to: { path: "^src/", pathNot: CONTRACT },
    },
    {
      name: "widgets-are-independent",
      comment:
        "A widget type is one folder: it never reaches into another widget's folder (a test may drive two together).",
      severity: "error",
      from: { path: "^src/widgets/([^/]+)/", pathNot: TESTS },
      to: { path: "^src/widgets/[^/]+/", pathNot: "^src/widgets/$1/" },
    },
    {
      name: "core-reaches-widgets-through-the-list",
      comment:
        "Only the list (src/widgets/index.ts) names widget folders; the server and web registries load them from it.",
      severity: "error",
      from: { path: "^src/(server|web|contract)/", pathNot: TESTS },
      to: { path: "^src/widgets/[^/]+/" },
    },
    {
      name: "integration-kinds-are-independent",
      comment: "A kind is one folder: it never reaches into another kind's folder, nor into a widget's.",
      severity: "error",
      from: { path: "^src/integrations/([^/]+)/", pathNot: TESTS },
      to: { path: ["^src/integrations/[^/]+/", "^src/widgets/[^/]+/"], pathNot: "^src/integrations/$1/" },
    },
    {
      name: "core-reaches-kinds-through-the-list",
      comment:
        "Only the list (src/integrations/index.ts) names kind folders; the server registry loads their server halves from it.",
      severity: "error",
      from: { path: "^src/(server|web|contract)/", pathNot: TESTS },
      to: { path: "^src/integrations/[^/]+/" },
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
        "Route plugins are leaves: only app.ts, the widget registry, or the route plugin of a parent folder registers them.",
      severity: "error",
      from: { pathNot: "(^src/server/app\\.ts$|/routes\\.ts$|^src/widgets/[^/]+/server/index\\.ts$)" },
      to: { path: "/routes\\.ts$" },
    },
    {
      name: "core-does-not-import-features",
      comment:
        "config, db, http, upstream, policies, ratelimit and redis sit below every feature and widget.",
      severity: "error",
      from: { path: CORE, pathNot: TESTS },
      to: {
        path: [`^src/server/${FEATURES}/`, "^src/server/(app|main)\\.ts$", "^src/widgets/[^/]+/server/"],
      },
    },
    {
      name: "auth-does-not-call-up",
      comment: "Authentication knows sessions, not the resources a sign-up leads to.",
      severity: "error",
      from: { path: "^src/server/auth/" },
      to: { path: "^src/server/(resources|notifications|exchange|providers|portability|jobs|push)/" },
    },
    {
      name: "nothing-imports-the-entry-points",
      severity: "error",
      from: { pathNot: `${TESTS}|^src/server/main\\.ts$` },
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
