import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { buildMarkdownContext, collectReferences, renderMarkdown, topicLinkKey } from "../../src/markdown/index.js";
import { CHANNELS, fixtureContext, REALM_URL } from "./fixtures.js";

const ctx = fixtureContext();
const render = (content: string) => renderMarkdown(content, ctx);

describe("user mentions", () => {
  test("@**Full Name** notifies the user and renders Zulip's span", () => {
    const r = render("hi @**King Hamlet**!");
    assert.equal(r.html, '<p>hi <span class="user-mention" data-user-id="10">@King Hamlet</span>!</p>');
    assert.deepEqual([...r.mentionedUserIds], [10]);
    assert.equal(r.wildcard, null);
  });

  test("names match case-insensitively and render with the stored name", () => {
    const r = render("@**cordelia, LEAR'S daughter**");
    assert.deepEqual([...r.mentionedUserIds], [11]);
    assert.match(r.html, /@Cordelia, Lear&#39;s daughter</);
  });

  test("@**Name|id** needs the exact name of that user; @**|id** needs only the id", () => {
    assert.deepEqual([...render("@**Iago|9**").mentionedUserIds], [9]);
    assert.deepEqual([...render("@**|9**").mentionedUserIds], [9]);
    const wrong = render("@**King Hamlet|9**");
    assert.equal(wrong.mentionedUserIds.size, 0);
    assert.doesNotMatch(wrong.html, /user-mention/);
  });

  test("silent mentions render without @ and notify nobody", () => {
    const r = render("@_**King Hamlet** said");
    assert.equal(r.html, '<p><span class="user-mention silent" data-user-id="10">King Hamlet</span> said</p>');
    assert.equal(r.mentionedUserIds.size, 0);
  });

  test("mentions inside quotes are silent", () => {
    const fenced = render("```quote\n@**King Hamlet** wrote this\n```");
    const marked = render("> @**King Hamlet** wrote this");
    for (const r of [fenced, marked]) {
      assert.equal(r.mentionedUserIds.size, 0);
      assert.match(r.html, /user-mention silent/);
    }
  });

  test("deactivated users are mentioned silently", () => {
    const r = render("@**Polonius**");
    assert.equal(r.mentionedUserIds.size, 0);
    assert.match(r.html, /class="user-mention silent" data-user-id="13">Polonius</);
  });

  test("unknown names and ambiguous names stay text", () => {
    assert.equal(render("@**Nobody**").html, "<p>@<strong>Nobody</strong></p>");
    const twins = fixtureContext();
    twins.usersByName.set("twin", [
      { id: 50, full_name: "Twin", email: "a@x" },
      { id: 51, full_name: "Twin", email: "b@x" },
    ]);
    twins.usersById.set(51, { id: 51, full_name: "Twin", email: "b@x" });
    assert.equal(renderMarkdown("@**Twin**", twins).mentionedUserIds.size, 0);
    assert.deepEqual([...renderMarkdown("@**Twin|51**", twins).mentionedUserIds], [51]);
  });

  test("a mention must start a word", () => {
    assert.equal(render("foo@**King Hamlet**").mentionedUserIds.size, 0);
    assert.equal(render("(@**King Hamlet**)").mentionedUserIds.size, 1);
  });

  test("mentions in code are not mentions", () => {
    assert.equal(render("`@**King Hamlet**`\n\n```\n@**Iago**\n```").mentionedUserIds.size, 0);
  });
});

describe("wildcard mentions", () => {
  for (const name of ["all", "everyone", "channel", "stream"]) {
    test(`@**${name}** is a channel-wide wildcard`, () => {
      const r = render(`@**${name}** meeting now`);
      assert.equal(r.wildcard, "stream");
      assert.match(r.html, new RegExp(`<span class="user-mention channel-wildcard-mention" data-user-id="\\*">@${name}</span>`));
    });
  }

  test("@**topic** is a topic wildcard", () => {
    const r = render("@**topic** heads up");
    assert.equal(r.wildcard, "topic");
    assert.match(r.html, /<span class="topic-mention">@topic<\/span>/);
  });

  test("a channel wildcard outranks a topic wildcard", () => {
    assert.equal(render("@**topic** and @**all**").wildcard, "stream");
    assert.equal(render("@**all** and @**topic**").wildcard, "stream");
  });

  test("silent and quoted wildcards notify nobody", () => {
    assert.equal(render("@_**all**").wildcard, null);
    assert.equal(render("> @**everyone**").wildcard, null);
    assert.match(render("@_**all**").html, /channel-wildcard-mention silent" data-user-id="\*">all</);
  });
});

describe("user group mentions", () => {
  test("@*group* reports the group and renders Zulip's span", () => {
    const r = render("ping @*hamletcharacters*");
    assert.equal(r.html, '<p>ping <span class="user-group-mention" data-user-group-id="20">@hamletcharacters</span></p>');
    assert.deepEqual([...r.mentionedGroupIds], [20]);
  });

  test("silent, quoted and deactivated group mentions report nothing", () => {
    assert.equal(render("@_*support*").mentionedGroupIds.size, 0);
    assert.match(render("@_*support*").html, /class="user-group-mention silent" data-user-group-id="21">support</);
    assert.equal(render("> @*support*").mentionedGroupIds.size, 0);
    assert.equal(render("@*old team*").mentionedGroupIds.size, 0);
  });

  test("unknown groups stay text", () => {
    assert.equal(render("@*nope*").html, "<p>@<em>nope</em></p>");
  });
});

describe("channel, topic and message links", () => {
  test("#**channel**", () => {
    const r = render("see #**Denmark**");
    assert.equal(r.html, '<p>see <a class="stream" data-stream-id="1" href="/#narrow/channel/1-Denmark">#Denmark</a></p>');
    assert.deepEqual([...r.linkedChannelIds], [1]);
    assert.equal(r.hasLink, true);
  });

  test("#**channel>topic** encodes the topic the way Zulip's URLs do", () => {
    const r = render("#**social>lunch plans.v2**");
    assert.equal(
      r.html,
      '<p><a class="stream-topic" data-stream-id="13" href="/#narrow/channel/13-social/topic/lunch.20plans.2Ev2">#social &gt; lunch plans.v2</a></p>',
    );
  });

  test("#**channel>topic@id** links a message", () => {
    assert.equal(
      render("#**Verona>party@103**").html,
      '<p><a class="message-link" href="/#narrow/channel/3-Verona/topic/party/near/103">#Verona &gt; party @ 💬</a></p>',
    );
  });

  test("#**channel>topic** names the topic's latest readable message with /with/ when there is one (FL 347, 400)", () => {
    const withIds = buildMarkdownContext({
      realmUrl: REALM_URL,
      channels: CHANNELS,
      topicMessageIds: new Map([[topicLinkKey("verona", "Party"), 214]]),
    });
    assert.equal(
      renderMarkdown("#**Verona>party**", withIds).html,
      '<p><a class="stream-topic" data-stream-id="3" href="/#narrow/channel/3-Verona/topic/party/with/214">#Verona &gt; party</a></p>',
    );
  });

  test("the empty topic is valid in topic and message links, shown as an emphasised 'general chat' (FL 346)", () => {
    assert.equal(
      render("#**Verona>**").html,
      '<p><a class="stream-topic" data-stream-id="3" href="/#narrow/channel/3-Verona/topic/">#Verona &gt; <em>general chat</em></a></p>',
    );
    const withIds = buildMarkdownContext({ realmUrl: REALM_URL, channels: CHANNELS, topicMessageIds: new Map([[topicLinkKey("Verona", ""), 7]]) });
    assert.equal(
      renderMarkdown("#**Verona>**", withIds).html,
      '<p><a class="stream-topic" data-stream-id="3" href="/#narrow/channel/3-Verona/topic//with/7">#Verona &gt; <em>general chat</em></a></p>',
    );
    assert.equal(
      render("#**Verona>@103**").html,
      '<p><a class="message-link" href="/#narrow/channel/3-Verona/topic//near/103">#Verona &gt; <em>general chat</em> @ 💬</a></p>',
    );
  });

  test("unknown channels stay text", () => {
    assert.equal(render("#**Nowhere**").html, "<p>#<strong>Nowhere</strong></p>");
  });
});

describe("collectReferences", () => {
  test("lists what needs fetching, without wildcards or duplicates", () => {
    const refs = collectReferences(
      "@**King Hamlet** @_**Iago|9** @**all** @*support* @_*hamletcharacters* #**Denmark>x** #**Verona** :green_tick: :smile: @**King Hamlet**",
    );
    assert.deepEqual(refs.userNames, ["King Hamlet"]);
    assert.deepEqual(refs.userIds, [9]);
    assert.deepEqual(refs.groupNames.sort(), ["hamletcharacters", "support"]);
    assert.deepEqual(refs.channelNames, ["Denmark", "Verona"]);
    assert.deepEqual(refs.realmEmojiNames, ["green_tick", "smile"]);
  });

  test("lists linked topics once each (case-insensitively), the empty one included, message links not", () => {
    const refs = collectReferences("#**Denmark>x** #**denmark>X** #**Verona>** #**Verona>party@103** #**Verona**");
    assert.deepEqual(refs.topicLinks, [
      { channelName: "denmark", topic: "X" },
      { channelName: "Verona", topic: "" },
    ]);
  });
});
