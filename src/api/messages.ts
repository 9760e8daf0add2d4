/** Message endpoints: send (Zulip's send-message) and fetch one (spec 4.6). */
import { accessMessage } from "../access/messages.js";
import { presentMessages } from "../actions/messages/message-views.js";
import { checkSendMessage } from "../actions/messages/send-message.js";
import { clientName } from "../http/client-name.js";
import { endpoint } from "../http/endpoint.js";
import { p } from "../http/params.js";
import { readTx } from "../store/db.js";
import { fakeEmailDomain } from "../policy/email-visibility.js";

export const sendMessage = endpoint({
  method: "POST",
  path: "/messages",
  auth: "user",
  params: {
    type: p.str(),
    to: p.str(),
    content: p.str(),
    topic: p.str().optional().alias("subject"),
    queue_id: p.str().optional(),
    local_id: p.str().optional(),
    read_by_sender: p.bool().optional(),
  },
  async handler(ctx, params) {
    return checkSendMessage(ctx.deps, ctx.realm, ctx.user, {
      type: params.type,
      to: params.to,
      content: params.content,
      topic: params.topic,
      queueId: params.queue_id,
      localId: params.local_id,
      readBySender: params.read_by_sender,
      client: clientName(ctx.request.headers["user-agent"]),
    });
  },
});

export const getMessage = endpoint({
  method: "GET",
  path: "/messages/:message_id",
  auth: "user",
  params: {
    message_id: p.int().path(),
    apply_markdown: p.bool().default(true),
    allow_empty_topic_name: p.bool().default(false),
  },
  async handler(ctx, params) {
    const tx = readTx(ctx.deps.store);
    const { message, flags } = await accessMessage(tx, ctx.user, params.message_id);
    const [presented] = await presentMessages(
      tx,
      ctx.realm,
      [message],
      flags === null ? new Map() : new Map([[message.id, flags]]),
      {
        applyMarkdown: params.apply_markdown,
        gravatar: ctx.deps.config.enableGravatar,
        clientGravatar: false,
        allowEmptyTopicName: params.allow_empty_topic_name,
        viewer: { user: ctx.user, emailDomain: fakeEmailDomain(ctx.deps.config, ctx.realm.string_id) },
      },
    );
    return { raw_content: message.content, message: presented };
  },
});

export const messageEndpoints = [sendMessage, getMessage];
