/**
 * BigBlueButton calls (issue 17): refused with Zulip's error when the server has no
 * BIG_BLUE_BUTTON_URL/SECRET; otherwise a signed join link naming the meeting and its moderator,
 * and BigBlueButton among register's providers.
 */
import assert from "node:assert/strict";
import { afterEach, describe, it } from "node:test";
import { readBigBlueButtonMeeting } from "../../src/actions/video-calls.js";
import { createTestRealm, type TestRealm } from "../helpers/fixtures.js";
import { assertError, checkPermissions } from "../helpers/org.js";
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
  });
}
