/** Scheduled messages (Zulip's get/create/update/delete-scheduled-message) and message reminders. */
import { doCreateReminder, doDeleteReminder, getOwnReminders } from "../actions/messages/reminders.js";
import {
  doCreateScheduledMessage,
  doDeleteScheduledMessage,
  doEditScheduledMessage,
  getOwnScheduledMessages,
} from "../actions/messages/scheduled-messages.js";
import { clientName } from "../http/client-name.js";
import { endpoint } from "../http/endpoint.js";
import { p } from "../http/params.js";

/** `to`: a channel id or a list of user ids as JSON; its shape is checked against `type` (parseTarget). */
const jsonTo = () => p.json<unknown>((value) => value);

export const getScheduledMessages = endpoint({
  method: "GET",
  path: "/scheduled_messages",
  auth: "user",
  params: {},
  async handler(ctx) {
    return { scheduled_messages: await getOwnScheduledMessages(ctx.deps, ctx.user) };
  },
});

export const createScheduledMessage = endpoint({
  method: "POST",
  path: "/scheduled_messages",
  auth: "user",
  params: {
    type: p.str(),
    to: jsonTo(),
    content: p.str(),
    topic: p.str().optional().alias("subject"),
    scheduled_delivery_timestamp: p.int(),
    read_by_sender: p.bool().optional(),
  },
  async handler(ctx, params) {
    const id = await doCreateScheduledMessage(ctx.deps, ctx.realm, ctx.user, {
      type: params.type,
      to: params.to,
      topic: params.topic,
      content: params.content,
      scheduledAt: params.scheduled_delivery_timestamp,
      readBySender: params.read_by_sender,
      client: clientName(ctx.request.headers["user-agent"]),
    });
    return { scheduled_message_id: id };
  },
});

export const updateScheduledMessage = endpoint({
  method: "PATCH",
  path: "/scheduled_messages/:scheduled_message_id",
  auth: "user",
  params: {
    scheduled_message_id: p.int().path(),
    type: p.str().optional(),
    to: jsonTo().optional(),
    content: p.str().optional(),
    topic: p.str().optional().alias("subject"),
    scheduled_delivery_timestamp: p.int().optional(),
  },
  async handler(ctx, params) {
    await doEditScheduledMessage(ctx.deps, ctx.realm, ctx.user, params.scheduled_message_id, {
      type: params.type,
      to: params.to,
      topic: params.topic,
      content: params.content,
      scheduledAt: params.scheduled_delivery_timestamp,
      client: clientName(ctx.request.headers["user-agent"]),
    });
  },
});

export const deleteScheduledMessage = endpoint({
  method: "DELETE",
  path: "/scheduled_messages/:scheduled_message_id",
  auth: "user",
  params: { scheduled_message_id: p.int().path() },
  async handler(ctx, params) {
    await doDeleteScheduledMessage(ctx.deps, ctx.user, params.scheduled_message_id);
  },
});

export const getReminders = endpoint({
  method: "GET",
  path: "/reminders",
  auth: "user",
  params: {},
  async handler(ctx) {
    return { reminders: await getOwnReminders(ctx.deps, ctx.user) };
  },
});

export const createReminder = endpoint({
  method: "POST",
  path: "/reminders",
  auth: "user",
  params: { message_id: p.int(), scheduled_delivery_timestamp: p.int(), note: p.str().optional() },
  async handler(ctx, params) {
    const id = await doCreateReminder(ctx.deps, ctx.realm, ctx.user, {
      messageId: params.message_id,
      scheduledAt: params.scheduled_delivery_timestamp,
      note: params.note,
      client: clientName(ctx.request.headers["user-agent"]),
    });
    return { reminder_id: id };
  },
});

export const deleteReminder = endpoint({
  method: "DELETE",
  path: "/reminders/:reminder_id",
  auth: "user",
  params: { reminder_id: p.int().path() },
  async handler(ctx, params) {
    await doDeleteReminder(ctx.deps, ctx.user, params.reminder_id);
  },
});

export const scheduledMessageEndpoints = [
  getScheduledMessages,
  createScheduledMessage,
  updateScheduledMessage,
  deleteScheduledMessage,
  getReminders,
  createReminder,
  deleteReminder,
];
