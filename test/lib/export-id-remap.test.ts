/** The ids inside values that a realm import moves (lib/export-id-remap.ts). */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { rewriteContent, rewriteIdList, rewriteMemberKey, rewriteStorageKey, type IdLookup } from "../../src/lib/export-id-remap.js";

const lookup: IdLookup = (table, id) => ({ users: { 5: 105, 6: 106 }, channels: { 3: 303 }, user_groups: { 9: 909 }, messages: { 40: 4040 }, realm_emoji: {} } as Record<string, Record<number, number>>)[table][id];

describe("export id remapping", () => {
  it("moves mentions, channel and message links and upload paths of a message, leaving unknown ids", () => {
    const html =
      '<span class="user-mention" data-user-id="5">@A</span> <span data-user-group-id="9">@g</span> <a class="stream" data-stream-id="3" href="/#narrow/channel/3-general">#general</a> ' +
      '<a href="/#narrow/channel/3-general/topic/x/near/40">x</a> <a href="/#narrow/dm/5,6-group">dm</a> <a href="/user_uploads/1/ab/f.png">f</a> ' +
      '<img src="/user_uploads/thumbnail/1/ab/f.png/840x560.webp"> <img src="/user_avatars/1/emoji/images/7.png"> <span data-user-id="77">@gone</span>';
    assert.equal(
      rewriteContent(html, lookup, 1, 2),
      '<span class="user-mention" data-user-id="105">@A</span> <span data-user-group-id="909">@g</span> <a class="stream" data-stream-id="303" href="/#narrow/channel/303-general">#general</a> ' +
        '<a href="/#narrow/channel/303-general/topic/x/near/4040">x</a> <a href="/#narrow/dm/105,106-group">dm</a> <a href="/user_uploads/2/ab/f.png">f</a> ' +
        '<img src="/user_uploads/thumbnail/2/ab/f.png/840x560.webp"> <img src="/user_avatars/2/emoji/images/7.png"> <span data-user-id="77">@gone</span>',
    );
    assert.equal(rewriteContent("@_**A|5** and #**general>x@40** and [f](/user_uploads/11/a/b)", lookup, 1, 2), "@_**A|105** and #**general>x@4040** and [f](/user_uploads/11/a/b)");
  });

  it("moves storage keys, JSON id lists and direct-message group keys", () => {
    assert.equal(rewriteStorageKey("1/abc/f.png", 1, 2), "2/abc/f.png");
    assert.equal(rewriteStorageKey("thumbnail/1/abc/f.png/x.webp", 1, 2), "thumbnail/2/abc/f.png/x.webp");
    assert.equal(rewriteStorageKey("user_avatars/1/emoji/images/x.png", 1, 2), "user_avatars/2/emoji/images/x.png");
    assert.equal(rewriteStorageKey("11/abc/f.png", 1, 2), "11/abc/f.png");
    assert.equal(rewriteIdList("[5,6,8]", lookup, "users"), "[105,106,8]");
    assert.equal(rewriteIdList("not json", lookup, "users"), "not json");
    assert.equal(rewriteMemberKey("5,6", lookup), "105,106");
  });
});
