import { createHash } from "node:crypto";
import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { deflateSync } from "node:zlib";

/**
 * Jellyfin for tests, on 127.0.0.1, as 10.11.11 answers (jellyfin/jellyfin at c3ed140:
 * Jellyfin.Api/Auth, Controllers/SessionController, UserLibraryController, ImageController):
 * - auth: an API key as `Authorization: MediaBrowser Token="<key>"` (other quoted params allowed,
 *   values URL-decoded), or `?ApiKey=`; with `legacyAuthorization` (10.11's default, off on 12.0)
 *   also `X-Emby-Token`, `X-MediaBrowser-Token`, the `Emby` scheme and `?api_key=`. Without a
 *   valid key: 401 with an empty body.
 * - `GET /System/Info/Public` (no auth), `GET /System/Info`;
 * - `GET /Users` → `UserDto[]` (`Name`, `Id`, `Policy.IsAdministrator`, `Policy.IsDisabled`);
 * - `GET /Sessions?activeWithinSeconds=` → `SessionInfoDto[]`; a playing one has
 *   `NowPlayingItem` and `PlayState` (`PositionTicks`, `IsPaused`, `PlayMethod`), ticks of 100 ns;
 * - `GET /Items/Latest?userId=&limit=&includeItemTypes=` → `BaseItemDto[]`, newest first, limit 20
 *   by default; with `groupItems` (default true) two or more new episodes of one series come as
 *   the series with `ChildCount`. API keys belong to no user: without a known `userId` it is 404
 *   (the controller's "user not found") [inference from the controller, not run].
 * - `GET /Items/<id>/Images/Primary?tag=&maxHeight=` → the picture (PNG), no auth needed (as in
 *   Jellyfin); 404 for an item without one.
 * Ids are 32 hex digits without dashes, as Jellyfin writes Guids. Every request is recorded.
 */
export const JELLYFIN_VERSION = "10.11.11";

export interface JellyfinUserSeed {
  Id: string;
  Name: string;
  admin: boolean;
  disabled?: boolean;
}

export interface JellyfinItemSeed {
  Id: string;
  Name: string;
  Type: "Movie" | "Episode" | "Series" | "Audio" | "MusicAlbum";
  ProductionYear?: number;
  SeriesName?: string;
  SeriesId?: string;
  ParentIndexNumber?: number;
  IndexNumber?: number;
  RunTimeTicks?: number;
  DateCreated: string;
  /** The primary image's tag; none: the item has no picture. */
  primaryTag?: string;
  /** Users who may see it (parental control); everyone when absent. */
  visibleTo?: string[];
}

export interface JellyfinSessionSeed {
  Id: string;
  UserId: string;
  UserName: string;
  Client: string;
  DeviceName: string;
  /** When it was last used; a playing session checks in every few seconds, so it is "now" for those. */
  LastActivityDate: string;
  /** What plays; none: an idle session (the app is open). */
  playing?: { itemId: string; positionSeconds: number; paused: boolean; method?: string };
}

export interface JellyfinRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: IncomingHttpHeaders;
}

export interface JellyfinFake {
  url: string;
  apiKey: string;
  requests: JellyfinRequest[];
  users: JellyfinUserSeed[];
  items: JellyfinItemSeed[];
  sessions: JellyfinSessionSeed[];
  /** Refused requests (401) so far. */
  refusals: number;
  count(path: string): number;
  close(): Promise<void>;
}

const TICKS_PER_SECOND = 10_000_000;
const SERVER_ID = "4fd6a0e1b6c94f0aa3c86d3e2b9d1c07";

/** A stable Guid in Jellyfin's "N" form for a test's label ("movie:dune2"). */
export const jellyfinId = (label: string) => createHash("md5").update(label).digest("hex");

export function seedJellyfin(now: number) {
  const ago = (minutes: number) => new Date(now - minutes * 60_000).toISOString().replace("Z", "0000Z");
  const users: JellyfinUserSeed[] = [
    { Id: jellyfinId("user:anna"), Name: "anna", admin: true },
    { Id: jellyfinId("user:ben"), Name: "ben", admin: false },
    { Id: jellyfinId("user:kids"), Name: "kids", admin: false },
  ];
  const series = jellyfinId("series:severance");
  const items: JellyfinItemSeed[] = [
    {
      Id: jellyfinId("movie:dune2"),
      Name: "Dune: Part Two",
      Type: "Movie",
      ProductionYear: 2024,
      RunTimeTicks: 9960 * TICKS_PER_SECOND,
      DateCreated: ago(30),
      primaryTag: "a1b2c3d4e5f60718293a4b5c6d7e8f90",
    },
    {
      Id: series,
      Name: "Severance",
      Type: "Series",
      ProductionYear: 2022,
      DateCreated: ago(60 * 24 * 30),
      primaryTag: "0f1e2d3c4b5a69788796a5b4c3d2e1f0",
    },
    ...[3, 4].map((episode, i) => ({
      Id: jellyfinId(`episode:severance:2:${episode}`),
      Name: ["Who Is Alive?", "Woe's Hollow"][i]!,
      Type: "Episode" as const,
      SeriesName: "Severance",
      SeriesId: series,
      ParentIndexNumber: 2,
      IndexNumber: episode,
      RunTimeTicks: 2640 * TICKS_PER_SECOND,
      DateCreated: ago(90 + i),
      primaryTag: `5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e${i}${i}`,
    })),
    {
      Id: jellyfinId("movie:paddington"),
      Name: "Paddington in Peru",
      Type: "Movie",
      ProductionYear: 2024,
      RunTimeTicks: 6360 * TICKS_PER_SECOND,
      DateCreated: ago(60 * 5),
      primaryTag: "9a8b7c6d5e4f30211203f4e5d6c7b8a9",
    },
    {
      Id: jellyfinId("movie:nosferatu"),
      Name: "Nosferatu",
      Type: "Movie",
      ProductionYear: 2024,
      RunTimeTicks: 7920 * TICKS_PER_SECOND,
      DateCreated: ago(60 * 26),
      visibleTo: [jellyfinId("user:anna"), jellyfinId("user:ben")],
    },
    {
      Id: jellyfinId("movie:wild-robot"),
      Name: "The Wild Robot",
      Type: "Movie",
      ProductionYear: 2024,
      RunTimeTicks: 6120 * TICKS_PER_SECOND,
      DateCreated: ago(60 * 50),
      primaryTag: "c0ffee00c0ffee00c0ffee00c0ffee00",
    },
  ];
  const sessions: JellyfinSessionSeed[] = [
    {
      Id: jellyfinId("session:anna-tv"),
      UserId: users[0]!.Id,
      UserName: "anna",
      Client: "Jellyfin Android TV",
      DeviceName: "Living room TV",
      LastActivityDate: ago(1),
      playing: { itemId: jellyfinId("episode:severance:2:3"), positionSeconds: 900, paused: false },
    },
    {
      Id: jellyfinId("session:ben-web"),
      UserId: users[1]!.Id,
      UserName: "ben",
      Client: "Jellyfin Web",
      DeviceName: "Firefox",
      LastActivityDate: ago(2),
      playing: {
        itemId: jellyfinId("movie:dune2"),
        positionSeconds: 5400,
        paused: true,
        method: "Transcode",
      },
    },
    {
      Id: jellyfinId("session:kids-idle"),
      UserId: users[2]!.Id,
      UserName: "kids",
      Client: "Jellyfin iOS",
      DeviceName: "iPad",
      LastActivityDate: ago(5),
    },
  ];
  return { users, items, sessions };
}

const listen = (server: Server) =>
  new Promise<string>((resolve) =>
    server.listen(0, "127.0.0.1", () =>
      resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`),
    ),
  );

function send(res: ServerResponse, status: number, body: unknown) {
  res.writeHead(status, { "content-type": "application/json; charset=utf-8" });
  res.end(JSON.stringify(body));
}

/** `MediaBrowser Token="k", Client="x"`: the scheme and its parameters, values URL-decoded. */
function authorizationParams(header: string | undefined): { scheme: string; params: Map<string, string> } {
  const params = new Map<string, string>();
  const match = /^\s*(\S+)\s+(.*)$/.exec(header ?? "");
  if (!match) return { scheme: "", params };
  for (const [, name, value] of match[2]!.matchAll(/([A-Za-z]+)="([^"]*)"/g)) {
    try {
      params.set(name!.toLowerCase(), decodeURIComponent(value!));
    } catch {
      params.set(name!.toLowerCase(), value!);
    }
  }
  return { scheme: match[1]!, params };
}

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
const crc32 = (bytes: Buffer) => {
  let c = 0xffffffff;
  for (const b of bytes) c = CRC_TABLE[(c ^ b) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
};
function chunk(type: string, data: Buffer) {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, "latin1"), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

/** A poster-shaped PNG (2:3) in a colour of its own, darkening downwards, so pictures tell items apart. */
export function posterPng(seed: string, height = 90): Buffer {
  const width = Math.round((height * 2) / 3);
  let hue = 0;
  for (const c of seed) hue = (hue * 31 + c.charCodeAt(0)) % 360;
  const rgb = (l: number) => {
    const a = 0.55 * Math.min(l, 1 - l);
    const f = (n: number) => {
      const k = (n + hue / 30) % 12;
      return Math.round(255 * (l - a * Math.max(-1, Math.min(k - 3, 9 - k, 1))));
    };
    return [f(0), f(8), f(4)];
  };
  const rows: Buffer[] = [];
  for (let y = 0; y < height; y++) {
    const row = Buffer.alloc(1 + width * 3);
    const [r, g, b] = rgb(0.62 - (0.4 * y) / height);
    for (let x = 0; x < width; x++) row.set([r!, g!, b!], 1 + x * 3);
    rows.push(row);
  }
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk("IHDR", header),
    chunk("IDAT", deflateSync(Buffer.concat(rows))),
    chunk("IEND", Buffer.alloc(0)),
  ]);
}

function itemDto(item: JellyfinItemSeed, childCount?: number) {
  return {
    Name: item.Name,
    ServerId: SERVER_ID,
    Id: item.Id,
    DateCreated: item.DateCreated,
    Type: item.Type,
    IsFolder: item.Type === "Series" || item.Type === "MusicAlbum",
    ...(item.ProductionYear !== undefined ? { ProductionYear: item.ProductionYear } : {}),
    ...(item.RunTimeTicks !== undefined ? { RunTimeTicks: item.RunTimeTicks } : {}),
    ...(item.SeriesName ? { SeriesName: item.SeriesName, SeriesId: item.SeriesId } : {}),
    ...(item.ParentIndexNumber !== undefined ? { ParentIndexNumber: item.ParentIndexNumber } : {}),
    ...(item.IndexNumber !== undefined ? { IndexNumber: item.IndexNumber } : {}),
    ...(childCount !== undefined ? { ChildCount: childCount } : {}),
    ImageTags: item.primaryTag ? { Primary: item.primaryTag } : {},
    BackdropImageTags: [],
    LocationType: "FileSystem",
    MediaType: item.Type === "Audio" ? "Audio" : item.Type === "Series" ? "Unknown" : "Video",
  };
}

export async function startJellyfinFake(
  options: { apiKey?: string; legacyAuthorization?: boolean; now?: () => number } = {},
): Promise<JellyfinFake> {
  const now = options.now ?? Date.now;
  const legacy = options.legacyAuthorization ?? true;
  const seeded = seedJellyfin(now());

  const keyOf = (req: { headers: IncomingHttpHeaders }, query: URLSearchParams): string | undefined => {
    const { scheme, params } = authorizationParams(req.headers.authorization);
    if (scheme === "MediaBrowser" || (legacy && scheme === "Emby")) {
      const token = params.get("token");
      if (token) return token;
    }
    if (query.get("ApiKey")) return query.get("ApiKey")!;
    if (!legacy) return undefined;
    const header = req.headers["x-emby-token"] ?? req.headers["x-mediabrowser-token"];
    if (typeof header === "string") return header;
    return query.get("api_key") ?? undefined;
  };

  const withSeries = (item: JellyfinItemSeed) => {
    const series = item.SeriesId ? fake.items.find((i) => i.Id === item.SeriesId) : undefined;
    const dto = itemDto(item);
    return series?.primaryTag ? { ...dto, SeriesPrimaryImageTag: series.primaryTag } : dto;
  };

  // A playing client reports its progress every few seconds; an idle one only when used.
  const lastActivity = (session: JellyfinSessionSeed) =>
    session.playing ? new Date(now() - 5_000).toISOString() : session.LastActivityDate;

  const sessionDto = (session: JellyfinSessionSeed) => {
    const item = session.playing ? fake.items.find((i) => i.Id === session.playing!.itemId) : undefined;
    return {
      PlayState: item
        ? {
            PositionTicks: session.playing!.positionSeconds * TICKS_PER_SECOND,
            CanSeek: true,
            IsPaused: session.playing!.paused,
            IsMuted: false,
            PlayMethod: session.playing!.method ?? "DirectPlay",
            RepeatMode: "RepeatNone",
          }
        : { CanSeek: false, IsPaused: false, IsMuted: false, RepeatMode: "RepeatNone" },
      AdditionalUsers: [],
      RemoteEndPoint: "192.168.1.23",
      PlayableMediaTypes: ["Audio", "Video"],
      Id: session.Id,
      UserId: session.UserId,
      UserName: session.UserName,
      Client: session.Client,
      LastActivityDate: lastActivity(session),
      LastPlaybackCheckIn: lastActivity(session),
      DeviceName: session.DeviceName,
      DeviceId: `device-${session.Id.slice(0, 8)}`,
      ApplicationVersion: "10.11.11",
      IsActive: true,
      SupportsMediaControl: true,
      SupportsRemoteControl: true,
      ServerId: SERVER_ID,
      ...(item ? { NowPlayingItem: withSeries(item) } : {}),
    };
  };

  const latest = (userId: string, query: URLSearchParams) => {
    const types = query.get("includeItemTypes")?.split(",").filter(Boolean);
    const limit = Number(query.get("limit") ?? 20);
    const group = query.get("groupItems") !== "false";
    const visible = fake.items
      .filter((i) => i.Type !== "Series" && i.Type !== "MusicAlbum")
      .filter((i) => !i.visibleTo || i.visibleTo.includes(userId))
      .filter((i) => !types || types.includes(i.Type))
      .sort((a, b) => Date.parse(b.DateCreated) - Date.parse(a.DateCreated));
    const answer: unknown[] = [];
    const seriesDone = new Set<string>();
    for (const item of visible) {
      if (answer.length >= limit) break;
      if (group && item.SeriesId) {
        if (seriesDone.has(item.SeriesId)) continue;
        seriesDone.add(item.SeriesId);
        const episodes = visible.filter((i) => i.SeriesId === item.SeriesId);
        const series = fake.items.find((i) => i.Id === item.SeriesId);
        if (episodes.length > 1 && series) {
          answer.push(itemDto(series, episodes.length));
          continue;
        }
      }
      answer.push({ ...withSeries(item), ChildCount: 0 });
    }
    return answer;
  };

  const server = createServer(async (req, res) => {
    for await (const _ of req);
    const url = new URL(req.url ?? "/", "http://fake");
    // ASP.NET Core routes ignore case.
    const path = url.pathname.toLowerCase();
    const method = req.method ?? "GET";
    fake.requests.push({ method, path: url.pathname, query: url.searchParams, headers: req.headers });

    if (method === "GET" && path === "/system/info/public")
      return send(res, 200, {
        LocalAddress: fake.url,
        ServerName: "Media",
        Version: JELLYFIN_VERSION,
        ProductName: "Jellyfin Server",
        OperatingSystem: "",
        Id: SERVER_ID,
        StartupWizardCompleted: true,
      });
    const image = /^\/items\/([0-9a-f]{32})\/images\/primary$/.exec(path);
    if (method === "GET" && image) {
      const item = fake.items.find((i) => i.Id === image[1]);
      if (!item?.primaryTag) return send(res, 404, { message: "Image not found" });
      const height = Math.min(Number(url.searchParams.get("maxHeight")) || 300, 300);
      res.writeHead(200, {
        "content-type": "image/png",
        "cache-control": "public, max-age=31536000",
      });
      return res.end(posterPng(item.Id, Math.max(height, 30)));
    }

    if (keyOf(req, url.searchParams) !== fake.apiKey) {
      fake.refusals++;
      res.writeHead(401, { "content-length": "0" });
      return res.end();
    }

    if (method === "GET" && path === "/system/info")
      return send(res, 200, {
        LocalAddress: fake.url,
        ServerName: "Media",
        Version: JELLYFIN_VERSION,
        ProductName: "Jellyfin Server",
        OperatingSystem: "Linux",
        Id: SERVER_ID,
        StartupWizardCompleted: true,
        HasPendingRestart: false,
        IsShuttingDown: false,
        SupportsLibraryMonitor: true,
        WebSocketPortNumber: 8096,
        CanSelfRestart: true,
        CanLaunchWebBrowser: false,
        HasUpdateAvailable: false,
        TranscodingTempPath: "/cache/transcodes",
        LogPath: "/config/log",
        InternalMetadataPath: "/config/metadata",
        CachePath: "/cache",
        ProgramDataPath: "/config",
        WebPath: "/jellyfin/jellyfin-web",
      });
    if (method === "GET" && path === "/users")
      return send(
        res,
        200,
        fake.users.map((u) => ({
          Name: u.Name,
          ServerId: SERVER_ID,
          Id: u.Id,
          HasPassword: true,
          HasConfiguredPassword: true,
          EnableAutoLogin: false,
          LastActivityDate: new Date(now()).toISOString(),
          Configuration: { PlayDefaultAudioTrack: true, SubtitleMode: "Default" },
          Policy: { IsAdministrator: u.admin, IsHidden: false, IsDisabled: u.disabled ?? false },
        })),
      );
    if (method === "GET" && path === "/sessions") {
      const within = Number(url.searchParams.get("activeWithinSeconds") ?? 0);
      return send(
        res,
        200,
        fake.sessions
          .filter((s) => !within || Date.parse(lastActivity(s)) >= now() - within * 1000)
          .map(sessionDto),
      );
    }
    if (method === "GET" && path === "/items/latest") {
      const userId = url.searchParams.get("userId")?.replaceAll("-", "").toLowerCase();
      if (!userId || !fake.users.some((u) => u.Id === userId))
        return send(res, 404, { message: "User not found" });
      return send(res, 200, latest(userId, url.searchParams));
    }
    res.writeHead(404, { "content-length": "0" });
    res.end();
  });
  const url = await listen(server);
  const fake: JellyfinFake = {
    url,
    apiKey: options.apiKey ?? `${Math.random().toString(16).slice(2)}${Math.random().toString(16).slice(2)}`,
    requests: [],
    ...seeded,
    refusals: 0,
    count: (path) => fake.requests.filter((r) => r.path.toLowerCase() === path.toLowerCase()).length,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  return fake;
}
