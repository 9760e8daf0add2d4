import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { Agent, fetch } from "undici";
import { isPrivateAddress, isPrivateLiteral, PrivateAddressError, privateAddressCause, publicOnlyLookup } from "../../src/lib/private-address.js";

describe("private addresses (outgoing-webhook request forgery)", () => {
  const cases: Array<[string, boolean]> = [
    ["127.0.0.1", true], ["10.1.2.3", true], ["172.16.0.1", true], ["172.32.0.1", false], ["192.168.1.1", true],
    ["169.254.169.254", true], ["100.64.0.1", true], ["0.0.0.0", true], ["224.0.0.1", true], ["8.8.8.8", false],
    ["::1", true], ["::", true], ["fd00::1", true], ["fe80::1", true], ["::ffff:127.0.0.1", true], ["::ffff:8.8.8.8", false],
    ["2001:4860:4860::8888", false], ["not-an-address", true],
  ];
  for (const [address, expected] of cases) {
    it(`${address} → ${expected ? "private" : "public"}`, () => assert.equal(isPrivateAddress(address), expected));
  }
  it("reads literal hosts of URLs, IPv6 in brackets too", () => {
    assert.equal(isPrivateLiteral("http://127.0.0.1:9/x"), true);
    assert.equal(isPrivateLiteral("http://[::1]:9/x"), true);
    assert.equal(isPrivateLiteral("https://8.8.8.8/x"), false);
    assert.equal(isPrivateLiteral("http://localhost/x"), false, "a host name is checked when connecting, not here");
  });

  it("refuses, inside the connection's lookup, a host name that resolves to loopback (no second resolution to rebind)", async () => {
    const looked = await new Promise<unknown>((resolve) => publicOnlyLookup("localhost", {}, (err) => resolve(err)));
    assert.ok(looked instanceof PrivateAddressError);
    // Through a real connection: the server on loopback is never reached.
    let reached = 0;
    const server = createServer((_req, res) => {
      reached++;
      res.end("reached");
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    try {
      const port = (server.address() as AddressInfo).port;
      const guarded = new Agent({ connect: { lookup: publicOnlyLookup } });
      const err = await fetch(`http://localhost:${port}/`, { dispatcher: guarded }).then(() => null, (e: unknown) => e);
      assert.ok(privateAddressCause(err), String(err));
      assert.equal(reached, 0);
      // The same request without the guard does reach it: the refusal is the lookup's.
      assert.equal(await (await fetch(`http://localhost:${port}/`)).text(), "reached");
      await guarded.close();
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});
