import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { isPrivateAddress, resolvesToPrivateAddress } from "../../src/lib/private-address.js";

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
  it("reads literal hosts of URLs, IPv6 in brackets too", async () => {
    assert.equal(await resolvesToPrivateAddress("http://127.0.0.1:9/x"), true);
    assert.equal(await resolvesToPrivateAddress("http://[::1]:9/x"), true);
    assert.equal(await resolvesToPrivateAddress("https://8.8.8.8/x"), false);
    assert.equal(await resolvesToPrivateAddress("http://localhost/x"), true);
  });
});
