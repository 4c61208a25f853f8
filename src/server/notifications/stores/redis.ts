import type { Redis } from "ioredis";
import { NOTIFICATIONS_RETAINED } from "../../../contract/notifications.js";
import type { Notification } from "../../../contract/resources.js";
import type { NotificationStore } from "./store.js";

/**
 * Takes the one element whose `id` is ARGV[1] out of the list and answers it (false: none). The
 * list holds JSON strings, so the element to LREM is only known after reading: in one script,
 * nothing (an LPUSH and LTRIM of another instance) can come between the read and the removal.
 */
const REMOVE_BY_ID = `
local items = redis.call('LRANGE', KEYS[1], 0, -1)
for _, item in ipairs(items) do
  local ok, decoded = pcall(cjson.decode, item)
  if ok and type(decoded) == 'table' and decoded.id == ARGV[1] then
    redis.call('LREM', KEYS[1], 1, item)
    return item
  end
end
return false
`;

/** One Redis list per user, newest at the head; LPUSH and LTRIM run in one MULTI so the cap always holds. */
export function createRedisNotificationStore(redis: Redis, prefix: string): NotificationStore {
  const key = (userId: string) => `${prefix}notifications:${userId}`;
  const parse = (items: string[]) => items.map((item) => JSON.parse(item) as Notification);
  return {
    async add(n) {
      const results = await redis
        .multi()
        .lpush(key(n.userId), JSON.stringify(n))
        .ltrim(key(n.userId), 0, NOTIFICATIONS_RETAINED - 1)
        .exec();
      const failed = results?.find(([error]) => error);
      if (!results || failed) throw failed?.[0] ?? new Error("Redis transaction was aborted");
    },
    async latest(userId, limit) {
      return parse(await redis.lrange(key(userId), 0, limit - 1));
    },
    async after(userId, afterId) {
      const all = parse(await redis.lrange(key(userId), 0, NOTIFICATIONS_RETAINED - 1));
      return all.filter((n) => n.id > afterId).sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
    },
    async remove(userId, id) {
      const removed = (await redis.eval(REMOVE_BY_ID, 1, key(userId), id.toLowerCase())) as string | null;
      return removed === null ? null : (JSON.parse(removed) as Notification);
    },
    async clear(userId) {
      await redis.del(key(userId));
    },
    async count(userId) {
      return redis.llen(key(userId));
    },
  };
}
