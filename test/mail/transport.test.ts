/**
 * The mail transports (issue 6, item 8): the .eml file format (one-line, encoded headers; base64
 * body), SMTP through nodemailer against a minimal local SMTP server, and a failing transport,
 * after which the invitation stays saved and the caller hears that the email did not go out.
 */
import assert from "node:assert/strict";
import { createServer, type AddressInfo, type Server } from "node:net";
import { afterEach, describe, it } from "node:test";
import { formatEml } from "../../src/mail/eml.js";
import { createTestRealm, type TestRealm } from "../helpers/fixtures.js";
import { STORE_KINDS } from "../helpers/stores.js";

const date = new Date(Date.UTC(2024, 0, 2, 3, 4, 5));

describe(".eml files", () => {
  it("keeps headers on one line and encodes non-ASCII ones", () => {
    const eml = formatEml({ from: "noreply@example.com", to: "a@example.com", subject: "Hi\r\nBcc: evil@example.com — Ünïcode", text: "line 1\nline 2\n", date });
    const [head, body] = eml.split("\r\n\r\n");
    const lines = head.split("\r\n");
    assert.ok(!lines.some((l) => l.startsWith("Bcc:")));
    const subject = lines.find((l) => l.startsWith("Subject: "))!.slice(9);
    const encoded = /^=\?UTF-8\?B\?(.*)\?=$/.exec(subject);
    assert.ok(encoded);
    assert.equal(Buffer.from(encoded[1], "base64").toString("utf8"), "Hi Bcc: evil@example.com — Ünïcode");
    assert.ok(lines.includes("Date: Tue, 02 Jan 2024 03:04:05 +0000"));
    assert.ok(lines.includes("Content-Transfer-Encoding: base64"));
    assert.match(lines.find((l) => l.startsWith("Message-ID: "))!, /^Message-ID: <[A-Za-z0-9_-]+@example\.com>$/);
    assert.equal(Buffer.from(body.replace(/\r\n/g, ""), "base64").toString("utf8"), "line 1\r\nline 2\r\n");
    assert.ok(body.split("\r\n").every((l) => l.length <= 76));
  });
});

/** Just enough SMTP for one client: records each message's DATA. */
function fakeSmtpServer(received: string[]): Server {
  return createServer((socket) => {
    let buffer = "";
    let message: string | null = null;
    socket.write("220 localhost ESMTP test\r\n");
    socket.on("data", (chunk) => {
      buffer += chunk.toString("utf8");
      for (let i = buffer.indexOf("\r\n"); i >= 0; i = buffer.indexOf("\r\n")) {
        const line = buffer.slice(0, i);
        buffer = buffer.slice(i + 2);
        if (message !== null) {
          if (line === ".") {
            received.push(message);
            message = null;
            socket.write("250 OK queued\r\n");
          } else message += `${line}\n`;
          continue;
        }
        const verb = line.slice(0, 4).toUpperCase();
        if (verb === "DATA") {
          message = "";
          socket.write("354 go ahead\r\n");
        } else if (verb === "QUIT") socket.end("221 bye\r\n");
        else socket.write(verb === "EHLO" || verb === "HELO" ? "250 localhost\r\n" : "250 OK\r\n");
      }
    });
  });
}

for (const kind of STORE_KINDS) {
  describe(`invitation mail transports [${kind}]`, () => {
    let t: TestRealm | null = null;
    let server: Server | null = null;
    afterEach(async () => {
      await t?.close();
      await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
      t = null;
      server = null;
    });

    it("sends through SMTP when SMTP_URL is set", async () => {
      const received: string[] = [];
      server = fakeSmtpServer(received);
      await new Promise<void>((resolve) => server!.listen(0, "127.0.0.1", resolve));
      const { port } = server.address() as AddressInfo;
      t = await createTestRealm(kind, { smtpUrl: `smtp://127.0.0.1:${port}`, mailFrom: "noreply@zulip.testserver.local" });
      const res = await t.as("iago").post("/invites", { invitee_emails: "smtp@example.com", stream_ids: [] });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      assert.equal(received.length, 1);
      const text = received[0].replace(/=\n/g, "");
      assert.match(text, /^To: smtp@example\.com$/m);
      assert.match(text, /^Subject: Iago invited you to join Zulip Dev$/m);
      assert.match(text, /https:\/\/zulip\.testserver\.local:9991\/join\/[A-Za-z0-9_-]+\//);
    });

    it("keeps the invitation and says so when the email cannot be sent", async () => {
      t = await createTestRealm(kind, { varDir: "/dev/null/not-a-directory" });
      const res = await t.as("iago").post("/invites", { invitee_emails: "lost@example.com", stream_ids: [] });
      assert.equal(res.status, 502);
      assert.equal(res.body.msg, "The invitation was saved, but its email could not be sent; try resending it.");
      const rows = await t.deps.store.db.selectFrom("invitations").select("email").execute();
      assert.deepEqual(rows, [{ email: "lost@example.com" }]);
    });
  });
}
