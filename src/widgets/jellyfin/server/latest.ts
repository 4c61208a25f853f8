import { type Static, Type } from "@sinclair/typebox";
import { defineSource } from "../../../server/upstream/source.js";
import { JELLYFIN_ID_PATTERN, JELLYFIN_TAG_PATTERN, type JellyfinLatest } from "../contract.js";

const TEXT_MAX = 200;
const ID = new RegExp(JELLYFIN_ID_PATTERN);
const TAG = new RegExp(JELLYFIN_TAG_PATTERN);

const Int = Type.Optional(Type.Union([Type.Integer(), Type.Null()]));
const Str = Type.Optional(Type.Union([Type.String(), Type.Null()]));

/** `GET /Users`: the people of the server, to pick whose additions are shown. */
export const UserList = defineSource(
  Type.Array(
    Type.Object({
      Id: Type.String(),
      Name: Str,
      Policy: Type.Optional(
        Type.Union([
          Type.Object({
            IsAdministrator: Type.Optional(Type.Boolean()),
            IsDisabled: Type.Optional(Type.Boolean()),
          }),
          Type.Null(),
        ]),
      ),
    }),
  ),
);
export type JellyfinUser = Static<typeof UserList.schema>[number];

/** `GET /Items/Latest`: BaseItemDto, the fields read here. */
export const LatestItems = defineSource(
  Type.Array(
    Type.Object({
      Id: Type.String(),
      Name: Str,
      Type: Str,
      SeriesName: Str,
      SeriesId: Str,
      SeriesPrimaryImageTag: Str,
      ProductionYear: Int,
      ParentIndexNumber: Int,
      IndexNumber: Int,
      ChildCount: Int,
      ImageTags: Type.Optional(Type.Union([Type.Record(Type.String(), Type.String()), Type.Null()])),
    }),
  ),
);
type LatestItem = Static<typeof LatestItems.schema>[number];

/** Jellyfin writes Guids without dashes; an id in another shape names no picture we serve. */
export const jellyfinId = (value: string | null | undefined) => {
  const id = value?.replaceAll("-", "").toLowerCase();
  return id && ID.test(id) ? id : null;
};

/** The picture shown for an item: a film's own poster; an episode's series' (its own is a still). */
function posterOf(item: LatestItem): JellyfinLatest["poster"] {
  const series = jellyfinId(item.SeriesId);
  const pick =
    item.Type === "Episode" && series && item.SeriesPrimaryImageTag
      ? { itemId: series, tag: item.SeriesPrimaryImageTag }
      : { itemId: jellyfinId(item.Id), tag: item.ImageTags?.Primary };
  return pick.itemId && pick.tag && TAG.test(pick.tag) ? { itemId: pick.itemId, tag: pick.tag } : null;
}

export function latestShown(items: readonly LatestItem[], count: number): JellyfinLatest[] {
  return items.slice(0, count).flatMap((item) => {
    const id = jellyfinId(item.Id);
    if (!id) return [];
    return [
      {
        id,
        name: item.Name?.slice(0, TEXT_MAX) ?? "",
        type: item.Type?.slice(0, 40) ?? "Unknown",
        seriesName: item.SeriesName?.slice(0, TEXT_MAX) ?? null,
        year: item.ProductionYear ?? null,
        season: item.ParentIndexNumber ?? null,
        number: item.IndexNumber ?? null,
        count: item.ChildCount && item.ChildCount > 1 ? item.ChildCount : null,
        poster: posterOf(item),
      },
    ];
  });
}

/** The user the widget names, or the server's first enabled administrator. */
export function latestUser(users: readonly JellyfinUser[], wanted: string | undefined): JellyfinUser | null {
  const enabled = users.filter((u) => u.Policy?.IsDisabled !== true);
  if (wanted) return enabled.find((u) => jellyfinId(u.Id) === wanted) ?? null;
  return enabled.find((u) => u.Policy?.IsAdministrator === true) ?? null;
}
