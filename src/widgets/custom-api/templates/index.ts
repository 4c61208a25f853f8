import type { CustomApiConfig } from "../contract.js";
import { type CustomApiTemplate, defineTemplate } from "./types.js";

export type { CustomApiTemplate };

/**
 * Bundled Custom API recipes for popular self-hosted services (DESIGN section 16, the widget
 * picker's catalogue). Each was written from its service's documentation (the `docs` address);
 * samples/<id>.json holds an answer of that shape, and templates.test.ts runs every recipe's
 * queries on it through the widget's real loader.
 */

type Field = CustomApiConfig["fields"][number];
type Column = NonNullable<CustomApiConfig["list"]>["columns"][number];

const field = (
  id: string,
  label: string,
  query: string,
  format: Field["format"] = "number",
  unit?: string,
): Field => ({
  id,
  label,
  query,
  format,
  ...(unit ? { unit } : {}),
});
const column = (id: string, label: string, query: string, format: Column["format"] = "text"): Column => ({
  id,
  label,
  query,
  format,
});
const stats = (fields: Field[], refreshSeconds = 60): CustomApiTemplate["config"] => ({
  refreshSeconds,
  display: "stats",
  fields,
});

export const CUSTOM_API_TEMPLATES: readonly CustomApiTemplate[] = [
  defineTemplate({
    id: "glances",
    service: "Glances",
    description: "CPU, memory, swap and load of a machine running Glances (API 4).",
    integrationKind: "custom",
    secretNames: [],
    // https://glances.readthedocs.io/en/latest/api/restful.html (GET /api/4/quicklook)
    docs: "https://glances.readthedocs.io/en/latest/api/restful.html",
    path: "/api/4/quicklook",
    config: stats(
      [
        field("cpu", "CPU", "cpu", "percent"),
        field("mem", "Memory", "mem", "percent"),
        field("swap", "Swap", "swap", "percent"),
        field("load", "Load", "load", "percent"),
        field("model", "Processor", "cpu_name", "text"),
      ],
      15,
    ),
  }),
  defineTemplate({
    id: "netdata",
    service: "Netdata",
    description: "Raised alerts, version and memory of a Netdata agent.",
    integrationKind: "custom",
    secretNames: [],
    // https://learn.netdata.cloud/docs/developer-and-contributor-corner/rest-api/ (GET /api/v1/info)
    docs: "https://learn.netdata.cloud/docs/developer-and-contributor-corner/rest-api/",
    path: "/api/v1/info",
    config: stats([
      field("healthy", "Healthy", "alarms.critical == `0`", "status"),
      field("critical", "Critical", "alarms.critical"),
      field("warning", "Warnings", "alarms.warning"),
      field("ram", "Memory", "ram_total", "bytes"),
      field("version", "Version", "version", "text"),
    ]),
  }),
  defineTemplate({
    id: "speedtest-tracker",
    service: "Speedtest Tracker",
    description: "The latest speed test: download, upload and ping.",
    integrationKind: "custom",
    secretNames: ["Authorization"],
    secretHint: "Bearer <API token with results:read>",
    // https://docs.speedtest-tracker.dev/api/responses/results (GET /api/v1/results/latest)
    docs: "https://docs.speedtest-tracker.dev/api/responses/results",
    path: "/api/v1/results/latest",
    config: stats(
      [
        field("down", "Download", "data.download_bits / `1000000`", "number", "Mbit/s"),
        field("up", "Upload", "data.upload_bits / `1000000`", "number", "Mbit/s"),
        field("ping", "Ping", "data.ping", "number", "ms"),
        field("healthy", "Healthy", "data.healthy", "status"),
        field("at", "Tested", "data.created_at", "date"),
      ],
      300,
    ),
  }),
  defineTemplate({
    id: "immich",
    service: "Immich",
    description: "Photos, videos and storage of an Immich server, per user.",
    integrationKind: "custom",
    secretNames: ["x-api-key"],
    secretHint: "An API key with the server.statistics permission",
    // https://api.immich.app/endpoints/server/getServerStatistics (GET /api/server/statistics)
    docs: "https://api.immich.app/endpoints/server/getServerStatistics",
    path: "/api/server/statistics",
    config: {
      refreshSeconds: 600,
      display: "table",
      fields: [
        field("photos", "Photos", "photos"),
        field("videos", "Videos", "videos"),
        field("usage", "Storage", "usage", "bytes"),
        field("users", "Users", "length(usageByUser)"),
      ],
      list: {
        query: "usageByUser",
        columns: [
          column("user", "User", "userName"),
          column("photos", "Photos", "photos", "number"),
          column("usage", "Storage", "usage", "bytes"),
        ],
      },
    },
  }),
  defineTemplate({
    id: "paperless-ngx",
    service: "Paperless-ngx",
    description: "Documents, the inbox and the archive's size in Paperless-ngx.",
    integrationKind: "custom",
    secretNames: ["Authorization"],
    secretHint: "Token <API token>",
    // https://docs.paperless-ngx.com/api/ (GET /api/statistics/)
    docs: "https://docs.paperless-ngx.com/api/",
    path: "/api/statistics/",
    config: {
      refreshSeconds: 300,
      display: "list",
      fields: [
        field("total", "Documents", "documents_total"),
        field("inbox", "In the inbox", "documents_inbox"),
        field("tags", "Tags", "tag_count"),
        field("correspondents", "Correspondents", "correspondent_count"),
      ],
      list: {
        query: "document_file_type_counts",
        columns: [
          column("type", "Type", "mime_type"),
          column("count", "Documents", "mime_type_count", "number"),
        ],
      },
    },
  }),
  defineTemplate({
    id: "nextcloud",
    service: "Nextcloud",
    description: "Users, files, free space and activity from Nextcloud's server info app.",
    integrationKind: "custom",
    secretNames: ["NC-Token"],
    secretHint: "The token set with occ config:app:set serverinfo token",
    // https://github.com/nextcloud/serverinfo#api-response (GET /ocs/v2.php/apps/serverinfo/api/v1/info)
    docs: "https://github.com/nextcloud/serverinfo#api-response",
    path: "/ocs/v2.php/apps/serverinfo/api/v1/info?format=json&skipApps=true&skipUpdate=true",
    config: stats(
      [
        field("status", "Status", "ocs.meta.status", "status"),
        field("users", "Users", "ocs.data.nextcloud.storage.num_users"),
        field("active", "Active today", "ocs.data.activeUsers.last24hours"),
        field("files", "Files", "ocs.data.nextcloud.storage.num_files"),
        field("free", "Free space", "ocs.data.nextcloud.system.freespace", "bytes"),
        field("load", "Load", "ocs.data.nextcloud.system.cpuload[0]"),
        field("version", "Version", "ocs.data.nextcloud.system.version", "text"),
      ],
      300,
    ),
  }),
  defineTemplate({
    id: "gitea",
    service: "Gitea / Forgejo",
    description: "Stars, forks, open issues and pull requests of a repository.",
    integrationKind: "custom",
    secretNames: [],
    secretHint: "For a private repository: Authorization = token <access token>",
    // https://docs.gitea.com/api/ (GET /api/v1/repos/{owner}/{repo})
    docs: "https://docs.gitea.com/api/",
    path: "/api/v1/repos/OWNER/REPO",
    config: stats(
      [
        field("stars", "Stars", "stars_count"),
        field("forks", "Forks", "forks_count"),
        field("issues", "Open issues", "open_issues_count"),
        field("pulls", "Pull requests", "open_pr_counter"),
        field("updated", "Updated", "updated_at", "date"),
      ],
      600,
    ),
  }),
  defineTemplate({
    id: "portainer",
    service: "Portainer",
    description: "Running, stopped and unhealthy containers across Portainer's environments.",
    integrationKind: "custom",
    secretNames: ["X-API-Key"],
    // https://docs.portainer.io/api/access and the API reference, EndpointList (GET /api/endpoints)
    docs: "https://docs.portainer.io/api/access",
    path: "/api/endpoints",
    config: {
      refreshSeconds: 60,
      display: "table",
      fields: [
        field("running", "Running", "sum([].Snapshots[0].RunningContainerCount)"),
        field("stopped", "Stopped", "sum([].Snapshots[0].StoppedContainerCount)"),
        field("unhealthy", "Unhealthy", "sum([].Snapshots[0].UnhealthyContainerCount)"),
        field("stacks", "Stacks", "sum([].Snapshots[0].StackCount)"),
      ],
      list: {
        query: "@",
        columns: [
          column("name", "Environment", "Name"),
          column("up", "Status", "Status == `1`", "status"),
          column("running", "Running", "Snapshots[0].RunningContainerCount", "number"),
        ],
      },
    },
  }),
  defineTemplate({
    id: "syncthing",
    service: "Syncthing",
    description: "Uptime and memory of a Syncthing instance.",
    integrationKind: "custom",
    secretNames: ["X-API-Key"],
    // https://docs.syncthing.net/rest/system-status-get.html (GET /rest/system/status)
    docs: "https://docs.syncthing.net/rest/system-status-get.html",
    path: "/rest/system/status",
    config: stats([
      field("uptime", "Uptime", "uptime", "duration"),
      field("memory", "Memory", "sys", "bytes"),
      field("started", "Started", "startTime", "date"),
      field("discovery", "Discovery", "discoveryEnabled", "status"),
    ]),
  }),
  defineTemplate({
    id: "overseerr",
    service: "Overseerr / Jellyseerr",
    description: "Media requests waiting, approved, processing and available.",
    integrationKind: "custom",
    secretNames: ["X-Api-Key"],
    // https://api-docs.overseerr.dev/#/request/get_request_count (GET /api/v1/request/count)
    docs: "https://api-docs.overseerr.dev/#/request/get_request_count",
    path: "/api/v1/request/count",
    config: stats([
      field("pending", "Pending", "pending"),
      field("processing", "Processing", "processing"),
      field("approved", "Approved", "approved"),
      field("available", "Available", "available"),
    ]),
  }),
  defineTemplate({
    id: "prowlarr",
    service: "Prowlarr",
    description: "Queries, grabs and failures per indexer.",
    integrationKind: "custom",
    secretNames: ["X-Api-Key"],
    // https://prowlarr.com/docs/api/#/IndexerStats (GET /api/v1/indexerstats)
    docs: "https://prowlarr.com/docs/api/#/IndexerStats",
    path: "/api/v1/indexerstats",
    config: {
      refreshSeconds: 300,
      display: "table",
      fields: [
        field("queries", "Queries", "sum(indexers[].numberOfQueries)"),
        field("grabs", "Grabs", "sum(indexers[].numberOfGrabs)"),
        field("failed", "Failed queries", "sum(indexers[].numberOfFailedQueries)"),
      ],
      list: {
        query: "indexers",
        columns: [
          column("name", "Indexer", "indexerName"),
          column("queries", "Queries", "numberOfQueries", "number"),
          column("grabs", "Grabs", "numberOfGrabs", "number"),
        ],
      },
    },
  }),
  defineTemplate({
    id: "healthchecks",
    service: "Healthchecks.io",
    description: "Which of your cron checks are down or late.",
    integrationKind: "custom",
    secretNames: ["X-Api-Key"],
    secretHint: "A project's read-only API key is enough",
    // https://healthchecks.io/docs/api/#list-checks (GET /api/v3/checks/)
    docs: "https://healthchecks.io/docs/api/#list-checks",
    path: "/api/v3/checks/",
    config: {
      refreshSeconds: 60,
      display: "list",
      fields: [
        field("down", "Down", "length(checks[?status == 'down'])"),
        field("late", "Late", "length(checks[?status == 'grace'])"),
        field("up", "Up", "length(checks[?status == 'up'])"),
      ],
      list: {
        query: "checks",
        columns: [
          column("name", "Check", "name"),
          column("status", "Status", "status", "status"),
          column("last", "Last ping", "last_ping", "date"),
        ],
      },
    },
  }),
  defineTemplate({
    id: "scrutiny",
    service: "Scrutiny",
    description: "S.M.A.R.T. health and temperature of your disks.",
    integrationKind: "custom",
    secretNames: [],
    // https://github.com/AnalogJ/scrutiny (GET /api/summary, webapp/backend/pkg/web/handler/get_devices_summary.go)
    docs: "https://github.com/AnalogJ/scrutiny",
    path: "/api/summary",
    config: {
      refreshSeconds: 900,
      display: "table",
      fields: [
        field("disks", "Disks", "length(keys(data.summary))"),
        field("failing", "Failing", "length(values(data.summary)[?device.device_status != `0`])"),
        field("hottest", "Hottest", "max(values(data.summary)[].smart.temp)", "number", "°C"),
      ],
      list: {
        query: "values(data.summary)",
        columns: [
          column("name", "Disk", "device.device_name"),
          column("model", "Model", "device.model_name"),
          column("ok", "Health", "device.device_status == `0`", "status"),
          column("temp", "°C", "smart.temp", "number"),
        ],
      },
    },
  }),
  defineTemplate({
    id: "changedetection",
    service: "changedetection.io",
    description: "Watched pages, unread changes and failing checks.",
    integrationKind: "custom",
    secretNames: ["x-api-key"],
    // https://changedetection.io/docs/api_v1/index.html (GET /api/v1/watch)
    docs: "https://changedetection.io/docs/api_v1/index.html",
    path: "/api/v1/watch",
    config: {
      refreshSeconds: 300,
      display: "list",
      fields: [
        field("watches", "Watches", "length(keys(@))"),
        field("unread", "Unread changes", "length(values(@)[?viewed == `false`])"),
        field("errors", "Errors", "length(values(@)[?last_error != `false`])"),
        field("changed", "Last change", "max(values(@)[].last_changed)", "date"),
      ],
      list: {
        query: "reverse(sort_by(values(@), &last_changed))",
        columns: [
          column("title", "Page", "title || url"),
          column("changed", "Changed", "last_changed", "date"),
        ],
      },
    },
  }),
  defineTemplate({
    id: "octoprint",
    service: "OctoPrint",
    description: "The print job: state, progress and time left.",
    integrationKind: "custom",
    secretNames: ["X-Api-Key"],
    // https://docs.octoprint.org/en/master/api/job.html (GET /api/job)
    docs: "https://docs.octoprint.org/en/master/api/job.html",
    path: "/api/job",
    config: stats(
      [
        field("state", "State", "state", "status"),
        field("progress", "Progress", "progress.completion", "percent"),
        field("left", "Time left", "progress.printTimeLeft", "duration"),
        field("file", "File", "job.file.name", "text"),
      ],
      15,
    ),
  }),
  defineTemplate({
    id: "adguard-home",
    service: "AdGuard Home",
    description: "DNS queries, how many were blocked, and the top blocked domains.",
    integrationKind: "custom",
    secretNames: ["Authorization"],
    secretHint: "Basic <base64 of user:password>",
    // https://github.com/AdguardTeam/AdGuardHome/blob/master/openapi/openapi.yaml (GET /control/stats)
    docs: "https://github.com/AdguardTeam/AdGuardHome/blob/master/openapi/openapi.yaml",
    path: "/control/stats",
    config: {
      refreshSeconds: 60,
      display: "list",
      fields: [
        field("queries", "Queries", "num_dns_queries"),
        field("blocked", "Blocked", "num_blocked_filtering"),
        field("share", "Blocked share", "num_blocked_filtering / num_dns_queries * `100`", "percent"),
        field("time", "Average time", "avg_processing_time * `1000`", "number", "ms"),
      ],
      list: {
        query: "top_blocked_domains[].{domain: keys(@)[0], count: values(@)[0]}",
        columns: [column("domain", "Domain", "domain"), column("count", "Blocked", "count", "number")],
      },
    },
  }),
  defineTemplate({
    id: "github-repo",
    service: "GitHub",
    description: "Stars, forks, watchers and open issues of a public repository.",
    integrationKind: "custom",
    secretNames: [],
    secretHint: "Optional, for a higher rate limit: Authorization = Bearer <token>",
    // https://docs.github.com/en/rest/repos/repos#get-a-repository (GET /repos/{owner}/{repo})
    docs: "https://docs.github.com/en/rest/repos/repos#get-a-repository",
    path: "/repos/OWNER/REPO",
    config: stats(
      [
        field("stars", "Stars", "stargazers_count"),
        field("forks", "Forks", "forks_count"),
        field("watchers", "Watchers", "subscribers_count"),
        field("issues", "Open issues", "open_issues_count"),
        field("pushed", "Last push", "pushed_at", "date"),
      ],
      900,
    ),
  }),
  defineTemplate({
    id: "sonarr-queue",
    service: "Sonarr / Radarr",
    description: "The download queue: what is downloading and how much is left.",
    integrationKind: "custom",
    secretNames: ["X-Api-Key"],
    // https://sonarr.tv/docs/api/#/Queue (GET /api/v3/queue); Radarr answers the same shape
    docs: "https://sonarr.tv/docs/api/#/Queue",
    path: "/api/v3/queue?page=1&pageSize=20",
    config: {
      refreshSeconds: 60,
      display: "list",
      fields: [
        field("queued", "In the queue", "totalRecords"),
        field("downloading", "Downloading", "length(records[?status == 'downloading'])"),
        field("left", "Left", "sum(records[].sizeleft)", "bytes"),
      ],
      list: {
        query: "records",
        columns: [
          column("title", "Title", "title"),
          column("status", "Status", "status"),
          column("left", "Time left", "timeleft"),
        ],
      },
    },
  }),
  defineTemplate({
    id: "jellyfin",
    service: "Jellyfin",
    description: "Movies, series, episodes, albums and books in the library.",
    integrationKind: "custom",
    secretNames: ["X-Emby-Token"],
    secretHint: "An API key from Dashboard › API Keys",
    // https://api.jellyfin.org/#tag/Library/operation/GetItemCounts (GET /Items/Counts)
    docs: "https://api.jellyfin.org/#tag/Library/operation/GetItemCounts",
    path: "/Items/Counts",
    config: stats(
      [
        field("movies", "Movies", "MovieCount"),
        field("series", "Series", "SeriesCount"),
        field("episodes", "Episodes", "EpisodeCount"),
        field("albums", "Albums", "AlbumCount"),
        field("books", "Books", "BookCount"),
      ],
      3600,
    ),
  }),
];
