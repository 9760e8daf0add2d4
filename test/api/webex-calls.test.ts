/**
 * Webex calls (issue 17, FL 493): each user authorizes Webex through the OAuth flow
 * (GET /calls/webex/register → Webex → GET /calls/webex/complete), after which
 * POST /calls/webex/create makes meetings with that user's token. Webex is a stand-in local
 * server that checks the client credentials and the bearer token as Webex does.
 */
import assert from "node:assert/strict";
import { afterEach, describe, it } from "node:test";
import { createTestRealm, type TestRealm, type UserName } from "../helpers/fixtures.js";
import { basicAuth } from "../helpers/http.js";
import { assertError } from "../helpers/org.js";
import { startStandIn, type StandIn, type StandInAnswer, type StandInRequest } from "../helpers/stand-in-server.js";
import { STORE_KINDS } from "../helpers/stores.js";

const CLIENT = { clientId: "webex-client", clientSecret: "webex-secret" };

/** A Webex stand-in: codes "good-code" (→ token tok-1) and refresh "ref-1" (→ tok-2); paid or free organization. */
function webexHandler(state: { paid: boolean; revoked: boolean }) {
  return (req: StandInRequest): StandInAnswer => {
    if (req.url.pathname === "/v1/access_token") {
      const form = new URLSearchParams(req.body);
      if (form.get("client_id") !== CLIENT.clientId || form.get("client_secret") !== CLIENT.clientSecret) return { status: 401, json: { message: "bad client" } };
      if (form.get("grant_type") === "authorization_code" && form.get("code") === "good-code") return { json: { access_token: "tok-1", refresh_token: "ref-1", expires_in: 3600 } };
      if (form.get("grant_type") === "refresh_token" && form.get("refresh_token") === "ref-1") return { json: { access_token: "tok-2", refresh_token: "ref-2", expires_in: 3600 } };
      return { status: 400, json: { error: "invalid_grant" } };
    }
    const auth = req.headers.authorization ?? "";
    if (state.revoked || !/^Bearer tok-[12]$/.test(auth)) return { status: 401, json: { message: "The request requires a valid access token" } };
    if (req.url.pathname === "/v1/rooms") return state.paid ? { json: { id: "room-1", title: "Webex Zulip Meeting" } } : { status: 403, json: { message: "Spaces belonging to a free org cannot be made public" } };
    if (req.url.pathname === "/v1/meetings") return { json: { id: "m-1", webLink: `https://example.webex.com/j.php?MTID=m${auth.slice(-1)}` } };
    return { status: 404, json: {} };
  };
}

for (const kind of STORE_KINDS) {
  describe(`Webex calls [${kind}]`, () => {
    let t: TestRealm;
    let webex: StandIn | null = null;
    afterEach(async () => {
      await t.close();
      await webex?.close();
      webex = null;
    });

    const web = (who: UserName | null, url: string, host = t.host) =>
      t.app.inject({ method: "GET", url, headers: { host, ...(who ? { authorization: basicAuth(t.users[who]) } : {}) } });

    /** Runs the OAuth flow for `who` and answers the completion response. */
    async function authorize(who: UserName) {
      const start = await web(who, "/calls/webex/register");
      assert.equal(start.statusCode, 302, start.body);
      const target = new URL(start.headers.location as string);
      const state = target.searchParams.get("state")!;
      return web(who, `/calls/webex/complete?code=good-code&state=${encodeURIComponent(state)}`);
    }

    it("refuses on a server without Webex settings", async () => {
      t = await createTestRealm(kind);
      assertError(await t.as("hamlet").post("/calls/webex/create", {}), "Webex credentials have not been configured");
      const start = await web("hamlet", "/calls/webex/register");
      assert.equal(start.statusCode, 400);
      assert.equal(JSON.parse(start.body).msg, "Webex credentials have not been configured");
      const state = await t.as("hamlet").post("/register", { fetch_event_types: ["realm", "video_calls"] });
      assert.equal(state.body.realm_available_video_chat_providers.webex, undefined);
      assert.equal(state.body.has_webex_token, false);
    });

    it("authorizes through Webex, then makes ad-hoc meetings in a public space with the user's token", async () => {
      const org = { paid: true, revoked: false };
      webex = await startStandIn(webexHandler(org));
      t = await createTestRealm(kind, { webex: { ...CLIENT, apiUrl: `${webex.origin}/v1/` } });
      const registered = await t.as("hamlet").post("/register", { event_types: ["has_webex_token"], fetch_event_types: ["realm", "video_calls"] });
      assert.deepEqual(registered.body.realm_available_video_chat_providers.webex, { name: "Webex", id: 8 });
      assert.equal(registered.body.has_webex_token, false);

      // No token yet: Zulip's invalid-token error, which tells clients to start the OAuth flow.
      assertError(await t.as("hamlet").post("/calls/webex/create", {}), "Invalid Webex access token", "INVALID_VIDEO_CALL_PROVIDER_TOKEN");

      const start = await web("hamlet", "/calls/webex/register");
      const target = new URL(start.headers.location as string);
      assert.equal(`${target.origin}${target.pathname}`, `${webex.origin}/v1/authorize`);
      assert.equal(target.searchParams.get("client_id"), CLIENT.clientId);
      assert.equal(target.searchParams.get("response_type"), "code");
      assert.equal(target.searchParams.get("redirect_uri"), `https://${t.host.replace(/^[^.]+\./, "")}/calls/webex/complete`);
      assert.equal(target.searchParams.get("scope"), "meeting:schedules_read meeting:schedules_write spark:all");
      const state = JSON.parse(target.searchParams.get("state")!);
      assert.equal(state.realm, t.subdomain);

      // A forged session identifier, an unknown code, no credentials: refused; nothing stored.
      const forged = encodeURIComponent(JSON.stringify({ realm: t.subdomain, sid: "0".repeat(64) }));
      assert.equal(JSON.parse((await web("hamlet", `/calls/webex/complete?code=good-code&state=${forged}`)).body).msg, "Invalid Webex session identifier");
      const real = encodeURIComponent(JSON.stringify(state));
      assert.equal(JSON.parse((await web("hamlet", `/calls/webex/complete?code=bad-code&state=${real}`)).body).msg, "Invalid Webex credentials");
      assert.equal(JSON.parse((await web("hamlet", `/calls/webex/complete?code=good-code`)).body).code, "REQUEST_VARIABLE_MISSING");
      assert.equal((await web(null, `/calls/webex/complete?code=good-code&state=${real}`)).statusCode, 401);
      // Another user cannot complete hamlet's authorization: the identifier is tied to the login.
      assert.equal(JSON.parse((await web("othello", `/calls/webex/complete?code=good-code&state=${real}`)).body).msg, "Invalid Webex session identifier");
      // Webex returns to the root domain: forwarded to the realm named in the state.
      const root = await web(null, `/calls/webex/complete?code=good-code&state=${real}`, t.host.replace(/^[^.]+\./, ""));
      assert.equal(root.statusCode, 302);
      assert.equal(root.headers.location, `https://${t.host}/calls/webex/complete?code=good-code&state=${real}`);
      assertError(await t.as("hamlet").post("/calls/webex/create", {}), "Invalid Webex access token", "INVALID_VIDEO_CALL_PROVIDER_TOKEN");

      const done = await web("hamlet", `/calls/webex/complete?code=good-code&state=${real}`);
      assert.equal(done.statusCode, 200, done.body);
      assert.match(done.headers["content-type"] as string, /^text\/html/);
      const events = (await t.as("hamlet").get("/events", { queue_id: registered.body.queue_id, last_event_id: -1, dont_block: true })).body.events;
      assert.deepEqual(events.map((e: { type: string; value: boolean }) => [e.type, e.value]), [["has_webex_token", true]]);
      assert.equal((await t.as("hamlet").post("/register", { fetch_event_types: ["video_calls"] })).body.has_webex_token, true);

      const call = await t.as("hamlet").post("/calls/webex/create", {});
      assert.equal(call.status, 200, JSON.stringify(call.body));
      assert.equal(call.body.url, "https://example.webex.com/j.php?MTID=m1");
      const [room, meeting] = webex.requests.slice(-2);
      assert.equal(room!.url.pathname, "/v1/rooms");
      assert.deepEqual(JSON.parse(room!.body), { title: "Webex Zulip Meeting", isPublic: true, description: "A Webex meeting created via the Zulip client." });
      assert.deepEqual(JSON.parse(meeting!.body), { adhoc: true, roomId: "room-1", title: "Webex Ad-hoc meeting" });

      // Hamlet's token is his own: othello still has none.
      assertError(await t.as("othello").post("/calls/webex/create", {}), "Invalid Webex access token", "INVALID_VIDEO_CALL_PROVIDER_TOKEN");

      // A free organization may not make public spaces: a 40-minute personal-room meeting instead.
      org.paid = false;
      assert.equal((await t.as("hamlet").post("/calls/webex/create", {})).body.url, "https://example.webex.com/j.php?MTID=m1");
      const personal = JSON.parse(webex.requests.at(-1)!.body);
      assert.deepEqual(personal, {
        scheduledType: "personalRoomMeeting",
        start: new Date(t.clock.now() * 1000).toISOString().replace(/\.000Z$/, "+00:00"),
        end: new Date((t.clock.now() + 2400) * 1000).toISOString().replace(/\.000Z$/, "+00:00"),
        title: "Webex Personal Room Meeting",
      });

      // An expired token is refreshed before use.
      t.clock.seconds += 7200;
      assert.equal((await t.as("hamlet").post("/calls/webex/create", {})).body.url, "https://example.webex.com/j.php?MTID=m2");

      // A token Webex no longer accepts is forgotten, and the user's clients are told.
      org.revoked = true;
      assertError(await t.as("hamlet").post("/calls/webex/create", {}), "Invalid Webex access token", "INVALID_VIDEO_CALL_PROVIDER_TOKEN");
      const after = (await t.as("hamlet").get("/events", { queue_id: registered.body.queue_id, last_event_id: events.at(-1).id, dont_block: true })).body.events;
      assert.deepEqual(after.map((e: { type: string; value: boolean }) => [e.type, e.value]), [["has_webex_token", false]]);
      assert.equal((await t.as("hamlet").post("/register", { fetch_event_types: ["video_calls"] })).body.has_webex_token, false);
    });

    it("every account may authorize and call, bots included, each with its own token", async () => {
      webex = await startStandIn(webexHandler({ paid: true, revoked: false }));
      t = await createTestRealm(kind, { webex: { ...CLIENT, apiUrl: `${webex.origin}/v1/` } });
      for (const who of ["desdemona", "iago", "shiva", "polonius", "bot"] as const) {
        assertError(await t.as(who).post("/calls/webex/create", {}), "Invalid Webex access token", "INVALID_VIDEO_CALL_PROVIDER_TOKEN");
        const done = await authorize(who);
        assert.equal(done.statusCode, 200, `${who}: ${done.body}`);
        const res = await t.as(who).post("/calls/webex/create", {});
        assert.equal(res.status, 200, `${who}: ${JSON.stringify(res.body)}`);
      }
    });
  });
}
