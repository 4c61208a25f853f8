import { uuidv7 } from "uuidv7";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { NOTIFICATIONS_RETAINED } from "../../src/contract/notifications.js";
import type { Notification } from "../../src/contract/resources.js";
import { type Database, openDatabase } from "../../src/server/db/client.js";
import { user } from "../../src/server/db/schema.js";
import { createSqlNotificationStore } from "../../src/server/notifications/stores/sql.js";
import { createPostgresDatabase } from "../support/services.js";

const WRITERS = 8;
const ROUNDS = 25;

/**
 * "At most 100 per user" under concurrent writers: insert-then-trim at READ COMMITTED lets each
 * transaction trim against a snapshot that misses the others' rows, so the user ends with more.
 */
describe.each(["postgres", "embedded"] as const)(
  "SQL notification store under concurrent writers (%s)",
  (kind) => {
    let database: Database;
    let drop: () => Promise<void> = async () => {};

    beforeAll(async () => {
      if (kind === "postgres") {
        const created = await createPostgresDatabase();
        drop = created.drop;
        database = await openDatabase({ databaseUrl: created.url, pgliteDir: "", poolSize: WRITERS + 2 });
      } else {
        database = await openDatabase({ databaseUrl: null, pgliteDir: "memory://" });
      }
      await database.migrate();
    });
    afterAll(async () => {
      await database.close();
      await drop();
    });

    it(`keeps at most ${NOTIFICATIONS_RETAINED} with ${WRITERS} writers for one user, round after round`, async () => {
      const store = createSqlNotificationStore(database.db);
      const userId = uuidv7();
      const now = new Date();
      await database.db.insert(user).values({
        id: userId,
        name: "Race",
        email: `race-${userId}@example.test`,
        emailVerified: false,
        createdAt: now,
        updatedAt: now,
      });
      const make = (message: string): Notification => ({
        id: uuidv7(),
        userId,
        type: "message",
        message,
        createdAt: new Date().toISOString(),
      });
      for (let i = 0; i < NOTIFICATIONS_RETAINED; i++) await store.add(make(`fill-${i}`));

      const counts: number[] = [];
      for (let round = 0; round < ROUNDS; round++) {
        const batch = Array.from({ length: WRITERS }, (_, i) => make(`r${round}-w${i}`));
        await Promise.all(batch.map((n) => store.add(n)));
        counts.push(await store.count(userId));
      }
      console.log(
        `[notification race ${kind}] counts after each round of ${WRITERS} writers: max ${Math.max(...counts)}`,
      );
      expect(Math.max(...counts)).toBe(NOTIFICATIONS_RETAINED);
      // The newest are the ones kept.
      const kept = await store.latest(userId, NOTIFICATIONS_RETAINED);
      expect(kept.map((n) => n.message).filter((m) => m.startsWith(`r${ROUNDS - 1}-`))).toHaveLength(WRITERS);
    });
  },
);
