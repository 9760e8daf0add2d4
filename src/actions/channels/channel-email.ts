/**
 * GET /streams/{stream_id}/email_address (Zulip's get-stream-email-address, FL 226; `sender_id`
 * FL 335; posting permission required since FL 448). The address carries a token Zulip keeps per
 * (channel, requesting user, sender): asking again gives the same address. The sender is the
 * email gateway bot by default, or the caller, or a bot the caller may administer (its owner or an
 * administrator, Zulip's access_bot_by_id). Without a configured gateway (EMAIL_GATEWAY_PATTERN)
 * the address is "", as in Zulip.
 *
 * Parley itself receives no mail: the address is what Zulip would hand out, for a mail gateway in
 * front of the server to deliver; no such gateway is part of Parley.
 */
import { randomBytes } from "node:crypto";
import { accessChannelById } from "../../access/channels.js";
import type { AppDeps } from "../../deps.js";
import { ApiError } from "../../errors.js";
import { encodeChannelEmailAddress } from "../../lib/channel-email.js";
import { canPostToChannel } from "../../policy/channels.js";
import { transaction } from "../../store/db.js";
import { findChannelEmailToken, insertChannelEmailToken, type ChannelEmailKey } from "../../store/channel-email.js";
import type { UserRow } from "../../store/types.js";
import { accessBot } from "../bots/bots.js";

export async function getChannelEmailAddress(deps: AppDeps, user: UserRow, channelId: number, senderId: number | undefined): Promise<string> {
  return transaction(deps.store, async (tx) => {
    const { channel, viewer } = await accessChannelById(tx, user, channelId, { requireContent: true });
    if (!canPostToChannel(viewer, channel)) throw new ApiError("You do not have permission to post in this channel.");
    let sender: number | null = null;
    if (senderId === user.id) sender = user.id;
    else if (senderId !== undefined) sender = (await accessBot(tx, user, senderId)).id;
    const key: ChannelEmailKey = { channelId: channel.id, creatorId: user.id, senderId: sender };
    let token = await findChannelEmailToken(tx, key);
    if (token === undefined) {
      // Zulip's generate_email_token_for_stream: 32 hexadecimal characters.
      token = randomBytes(16).toString("hex");
      await insertChannelEmailToken(tx, key, token, deps.clock.now());
    }
    return encodeChannelEmailAddress(deps.config.emailGatewayPattern, channel.name, token);
  });
}
