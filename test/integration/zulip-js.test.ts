/**
 * The real npm client `zulip-js` against a listening Parley: register a queue, send, receive the
 * event, react, type, retrieve messages. zulip-js posts multipart bodies and sends GET/DELETE
 * parameters in the query string, so this also proves those paths.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { createRequire } from "node:module";
import { checkCreateRealm } from "../../src/actions/realm/realms.js";
import { createTestRealm, grantCanCreateUsers, type TestRealm } from "../helpers/fixtures.js";
import { STORE_KINDS } from "../helpers/stores.js";

const require = createRequire(import.meta.url);
const zulipInit = require("zulip-js") as (config: { username: string; apiKey: string; realm: string }) => Promise<ZulipClient>;

/* eslint-disable @typescript-eslint/no-explicit-any */
interface ZulipClient {
  queues: { register(p: any): Promise<any> };
  events: { retrieve(p: any): Promise<any> };
  messages: { send(p: any): Promise<any>; retrieve(p: any): Promise<any> };
  reactions: { add(p: any): Promise<any> };
  typing: { send(p: any): Promise<any> };
  users: { me: { getProfile(): Promise<any> } };
}

for (const kind of STORE_KINDS) {
  describe(`zulip-js client [${kind}]`, () => {
    let t: TestRealm;
    let base: string;
    let alice: ZulipClient;
    let bob: ZulipClient;
    let bobId: number;
    before(async () => {
      t = await createTestRealm(kind);
      // A root realm, so that http://127.0.0.1:PORT (no subdomain) reaches it.
      const root = await checkCreateRealm(t.deps.store, { subdomain: "", name: "Root", ownerEmail: "alice@root.test", ownerName: "Alice", ownerPassword: "pw-alice-123" }, t.clock.now());
      await grantCanCreateUsers(t.deps.store, root.owner.userId);
      await t.app.listen({ port: 0, host: "127.0.0.1" });
      const address = t.app.server.address() as { port: number };
      base = `http://127.0.0.1:${address.port}`;
      alice = await zulipInit({ username: "alice@root.test", apiKey: root.owner.apiKey, realm: base });
      const created = await fetch(`${base}/api/v1/users`, {
        method: "POST",
        headers: { authorization: "Basic " + Buffer.from(`alice@root.test:${root.owner.apiKey}`).toString("base64"), "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ email: "bob@root.test", password: "pw-bob-1234", full_name: "Bob" }),
      }).then((r) => r.json());
      bobId = created.user_id;
      bob = await zulipInit({ username: "bob@root.test", apiKey: "", realm: base, password: "pw-bob-1234" } as never);
      const channel = await fetch(`${base}/api/v1/channels/create`, {
        method: "POST",
        headers: { authorization: "Basic " + Buffer.from(`alice@root.test:${root.owner.apiKey}`).toString("base64"), "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ name: "general", subscribers: JSON.stringify([root.owner.userId, bobId]) }),
      }).then((r) => r.json());
      assert.equal(channel.result, "success", JSON.stringify(channel));
    });
    after(() => t.close());

    it("registers, sends, receives, reacts, types and retrieves", async () => {
      const me = await bob.users.me.getProfile();
      assert.equal(me.user_id, bobId);
      const queue = await bob.queues.register({ event_types: ["message", "reaction", "typing"] });
      assert.equal(queue.result, "success", JSON.stringify(queue));

      const sent = await alice.messages.send({ to: "general", type: "stream", topic: "hello", content: "Hi **Bob**" });
      assert.equal(sent.result, "success", JSON.stringify(sent));
      const got = await bob.events.retrieve({ queue_id: queue.queue_id, last_event_id: -1 });
      assert.equal(got.result, "success", JSON.stringify(got));
      assert.equal(got.events[0].type, "message");
      assert.equal(got.events[0].message.id, sent.id);

      const reacted = await bob.reactions.add({ message_id: sent.id, emoji_name: "octopus" });
      assert.equal(reacted.result, "success", JSON.stringify(reacted));
      const typing = await alice.typing.send({ to: [bobId], op: "start" });
      assert.equal(typing.result, "success", JSON.stringify(typing));
      const more = await bob.events.retrieve({ queue_id: queue.queue_id, last_event_id: 0 });
      assert.deepEqual(more.events.map((e: { type: string }) => e.type), ["reaction", "typing"]);

      const fetched = await bob.messages.retrieve({ anchor: "newest", num_before: 10, num_after: 0, narrow: [{ operator: "channel", operand: "general" }] });
      assert.equal(fetched.result, "success", JSON.stringify(fetched));
      assert.equal(fetched.messages.at(-1).id, sent.id);
      assert.equal(fetched.messages.at(-1).reactions[0].emoji_name, "octopus");
    });
  });
}
