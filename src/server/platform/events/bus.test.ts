import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { type DatabaseHandle, openDatabase, queryRows } from "../../db/client";
import { createLogger } from "../../lib/logger";
import { type BusPayload, createLocalBus, createPostgresBus, type EventBus, MAX_PAYLOAD_BYTES } from "./bus";

const logger = createLogger("silent");
const template = inject("testDatabase");

/** Resolves with the next message on a channel, or rejects after a while. */
function nextMessage(bus: EventBus, channel: string, timeoutMs = 5_000): Promise<BusPayload> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      unsubscribe();
      reject(new Error(`no message on ${channel} within ${timeoutMs} ms`));
    }, timeoutMs);
    const unsubscribe = bus.subscribe(channel, (payload) => {
      clearTimeout(timer);
      unsubscribe();
      resolve(payload);
    });
  });
}

describe("the in-process event bus", () => {
  it("delivers to the channel's subscribers only, until they unsubscribe", async () => {
    const bus = createLocalBus(logger);
    const seen: BusPayload[] = [];
    const unsubscribe = bus.subscribe("a", (payload) => seen.push(payload));
    bus.subscribe("b", () => seen.push("wrong channel"));
    await bus.publish("a", { id: 1 });
    unsubscribe();
    await bus.publish("a", { id: 2 });
    expect(seen).toEqual([{ id: 1 }]);
  });

  it("keeps delivering to the others when one subscriber throws", async () => {
    const bus = createLocalBus(logger);
    const seen: BusPayload[] = [];
    bus.subscribe("a", () => {
      throw new Error("broken subscriber");
    });
    bus.subscribe("a", (payload) => seen.push(payload));
    await bus.publish("a", "hello");
    expect(seen).toEqual(["hello"]);
  });

  it("refuses a message PostgreSQL could not carry", async () => {
    const bus = createLocalBus(logger);
    await expect(bus.publish("a", "x".repeat(MAX_PAYLOAD_BYTES))).rejects.toThrow(/send ids, not records/);
  });
});

describe.skipIf(template.kind !== "postgres")("the event bus on PostgreSQL", () => {
  let handle: DatabaseHandle;
  let connectionString: string;
  const buses: EventBus[] = [];
  const open = async () => {
    const bus = await createPostgresBus({ db: handle.db, connectionString, logger });
    buses.push(bus);
    return bus;
  };

  beforeAll(async () => {
    if (template.kind !== "postgres") return;
    connectionString = template.adminUrl;
    handle = await openDatabase({ databaseUrl: connectionString, poolSize: 2 });
  });
  afterAll(async () => {
    for (const bus of buses) await bus.close();
    await handle?.close();
  });

  it("carries a message to another process's subscribers, and to the publisher's own once", async () => {
    const [first, second] = [await open(), await open()];
    const ownCopies: BusPayload[] = [];
    first.subscribe("greeting", (payload) => ownCopies.push(payload));
    const arriving = nextMessage(second, "greeting");
    await first.publish("greeting", { from: "first" });
    expect(await arriving).toEqual({ from: "first" });
    // Its own echo through the database is not delivered a second time.
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(ownCopies).toEqual([{ from: "first" }]);
  });

  it("reconnects after its connection is cut, says messages may have been missed, and listens again", async () => {
    const [publisher, listener] = [await open(), await open()];
    let missed = 0;
    const reconnected = new Promise<void>((resolve) =>
      listener.onMissedMessages(() => {
        missed++;
        resolve();
      }),
    );
    // Cuts every bus's listening connection, as a database restart or a network fault would.
    const cut = await queryRows<{ ok: boolean }>(
      handle.db,
      sql`select pg_terminate_backend(pid) as ok from pg_stat_activity where query = 'listen dash_events'`,
    );
    expect(cut.length).toBeGreaterThanOrEqual(2);
    await reconnected;
    expect(missed).toBe(1);
    const arriving = nextMessage(listener, "after");
    await publisher.publish("after", "still there");
    expect(await arriving).toBe("still there");
  });
});
