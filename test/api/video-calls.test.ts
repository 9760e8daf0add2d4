/**
 * BigBlueButton calls (issue 17): refused with Zulip's error when the server has no
 * BIG_BLUE_BUTTON_URL/SECRET; otherwise a signed join link naming the meeting and its moderator,
 * and BigBlueButton among register's providers.
 */
import assert from "node:assert/strict";
import { afterEach, describe, it } from "node:test";
import { readBigBlueButtonMeeting } from "../../src/actions/calls/video-calls.js";
import { createTestRealm, type TestRealm } from "../helpers/fixtures.js";
import { assertError, checkPermissions } from "../helpers/org.js";
import { basicAuth } from "../helpers/http.js";
import { createServer, type Server } from "node:http";
import { createHash } from "node:crypto";
import { STORE_KINDS } from "../helpers/stores.js";

const BBB = { url: "https://bbb.example.com/bigbluebutton/", secret: "bbb-shared-secret" };

for (const kind of STORE_KINDS) {
  describe(`video calls [${kind}]`, () => {
    let t: TestRealm;
    afterEach(() => t.close());

    it("refuses BigBlueButton calls on a server without it", async () => {
      t = await createTestRealm(kind);
      assertError(await t.as("hamlet").get("/calls/bigbluebutton/create", { meeting_name: "standup" }), "BigBlueButton is not configured.");
      const state = await t.as("hamlet").post("/register", { fetch_event_types: ["realm"] });
      assert.equal(state.body.realm_available_video_chat_providers.big_blue_button, undefined);
    });

    it("hands out a signed join link with the caller as moderator", async () => {
      t = await createTestRealm(kind, { bigBlueButton: BBB });
      const res = await t.as("hamlet").get("/calls/bigbluebutton/create", { meeting_name: "standup", voice_only: true });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      const url = new URL(res.body.url, "https://zulip.example");
      assert.equal(url.pathname, "/calls/bigbluebutton/join");
      const meeting = readBigBlueButtonMeeting(BBB.secret, url.searchParams.get("bigbluebutton")!);
      assert.ok(meeting);
      assert.match(meeting.meeting_id, /^zulip-\d{12}$/);
      assert.deepEqual({ ...meeting, meeting_id: "" }, { meeting_id: "", name: "standup", lock_settings_disable_cam: true, moderator: t.users.hamlet.id });
      // A link altered to name another meeting no longer verifies.
      const [payload, signature] = url.searchParams.get("bigbluebutton")!.split(".");
      const forged = Buffer.from(JSON.stringify({ ...meeting, moderator: t.users.othello.id })).toString("base64url");
      assert.equal(readBigBlueButtonMeeting(BBB.secret, `${forged}.${signature}`), null);
      assert.ok(payload);
      assertError(await t.as("hamlet").get("/calls/bigbluebutton/create", {}), "Missing 'meeting_name' argument", "REQUEST_VARIABLE_MISSING");
      await checkPermissions(["desdemona", "iago", "shiva", "hamlet", "polonius", "bot"], (who) => t.as(who).get("/calls/bigbluebutton/create", { meeting_name: "m" }));
      const state = await t.as("hamlet").post("/register", { fetch_event_types: ["realm"] });
      assert.deepEqual(state.body.realm_available_video_chat_providers.big_blue_button, { name: "BigBlueButton", id: 4 });
    });

    it("joins through the BigBlueButton server: creates the meeting, then redirects with a signed join URL", async () => {
      // A stand-in BigBlueButton server: checks each call's checksum as BigBlueButton does.
      const calls: URL[] = [];
      let answer = "SUCCESS";
      const bbb: Server = createServer((req, res) => {
        const url = new URL(req.url ?? "/", "http://bbb");
        calls.push(url);
        const query = url.search.slice(1).replace(/&checksum=[0-9a-f]+$/, "");
        const call = url.pathname.split("/").at(-1) ?? "";
        const ok = createHash("sha256").update(call + query + BBB.secret).digest("hex") === url.searchParams.get("checksum");
        res.setHeader("content-type", "text/xml");
        res.end(ok ? `<response><returncode>${answer}</returncode><createTime>1700000000000</createTime></response>` : "<response><returncode>FAILED</returncode><messageKey>checksumError</messageKey></response>");
      });
      await new Promise<void>((resolve) => bbb.listen(0, "127.0.0.1", resolve));
      try {
        const port = (bbb.address() as { port: number }).port;
        t = await createTestRealm(kind, { bigBlueButton: { url: `http://127.0.0.1:${port}/bigbluebutton/`, secret: BBB.secret } });
        const link = (await t.as("hamlet").get("/calls/bigbluebutton/create", { meeting_name: "standup" })).body.url as string;
        const join = (who: "hamlet" | "othello", url = link) => t.app.inject({ method: "GET", url, headers: { host: t.host, authorization: basicAuth(t.users[who]) } });

        const moderator = await join("hamlet");
        assert.equal(moderator.statusCode, 302, moderator.body);
        const target = new URL(moderator.headers.location as string);
        assert.equal(target.pathname, "/bigbluebutton/api/join");
        assert.equal(target.searchParams.get("role"), "MODERATOR");
        assert.equal(target.searchParams.get("fullName"), t.users.hamlet.fullName);
        assert.equal(target.searchParams.get("createTime"), "1700000000000");
        assert.equal(calls.at(-1)?.pathname, "/bigbluebutton/api/create");
        assert.equal(calls.at(-1)?.searchParams.get("name"), "standup");
        const viewer = await join("othello");
        assert.equal(new URL(viewer.headers.location as string).searchParams.get("role"), "VIEWER");
        assert.equal(new URL(viewer.headers.location as string).searchParams.get("meetingID"), target.searchParams.get("meetingID"));

        // Refusals: an altered link, no credentials, an error from the BigBlueButton server.
        const forged = await join("hamlet", link.replace(/\.[^.]+$/, ".AAAA"));
        assert.equal(forged.statusCode, 400);
        assert.equal(JSON.parse(forged.body).msg, "Invalid signature.");
        assert.equal((await t.app.inject({ method: "GET", url: link, headers: { host: t.host } })).statusCode, 401);
        answer = "FAILED";
        assert.equal(JSON.parse((await join("hamlet")).body).msg, "BigBlueButton server returned an unexpected error.");
      } finally {
        await new Promise<void>((resolve) => bbb.close(() => resolve()));
      }
    });
  });
}
