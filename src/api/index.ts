/**
 * The endpoint table: every operation Parley serves, collected from the resource files. The router,
 * the permission matrix and the contract tests all walk this one list.
 */
import type { AnyEndpoint } from "../http/endpoint.js";
import { alertWordEndpoints } from "./alert-words.js";
import { attachmentEndpoints } from "./attachments.js";
import { botStorageEndpoints } from "./bot-storage.js";
import { channelEmailEndpoints } from "./channel-email.js";
import { clientDeviceEndpoints } from "./client-devices.js";
import { authEndpoints } from "./auth.js";
import { eventEndpoints } from "./events.js";
import { botEndpoints } from "./bots.js";
import { channelFolderEndpoints } from "./channel-folders.js";
import { channelEndpoints } from "./channels.js";
import { draftEndpoints } from "./drafts.js";
import { inviteEndpoints } from "./invites.js";
import { messageEditEndpoints } from "./message-edits.js";
import { messageFetchEndpoints } from "./message-fetch.js";
import { linkifierEndpoints } from "./linkifiers.js";
import { messageEndpoints } from "./messages.js";
import { messageReportEndpoints } from "./message-reports.js";
import { mutedUserEndpoints } from "./muted-users.js";
import { navigationViewEndpoints } from "./navigation-views.js";
import { presenceEndpoints } from "./presence.js";
import { profileFieldEndpoints } from "./profile-fields.js";
import { pushEndpoints } from "./push.js";
import { reactionEndpoints } from "./reactions.js";
import { readReceiptEndpoints } from "./read-receipts.js";
import { realmEndpoints } from "./realm.js";
import { realmEmojiEndpoints } from "./realm-emoji.js";
import { realmIntegrationEndpoints } from "./realm-integrations.js";
import { realmExportEndpoints } from "./realm-exports.js";
import { serverEndpoints } from "./server.js";
import { savedSnippetEndpoints } from "./saved-snippets.js";
import { scheduledMessageEndpoints } from "./scheduled-messages.js";
import { settingsEndpoints } from "./settings.js";
import { submessageEndpoints } from "./submessages.js";
import { subscriptionEndpoints } from "./subscriptions.js";
import { topicEndpoints } from "./topics.js";
import { typingEndpoints } from "./typing.js";
import { uploadEndpoints } from "./uploads.js";
import { userGroupEndpoints } from "./user-groups.js";
import { userStatusEndpoints } from "./user-status.js";
import { userEndpoints } from "./users.js";
import { videoCallEndpoints } from "./video-calls.js";

export const ENDPOINTS: readonly AnyEndpoint[] = [
  ...serverEndpoints,
  ...eventEndpoints,
  ...typingEndpoints,
  ...presenceEndpoints,
  ...authEndpoints,
  ...userEndpoints,
  ...settingsEndpoints,
  ...botEndpoints,
  ...botStorageEndpoints,
  ...userStatusEndpoints,
  ...mutedUserEndpoints,
  ...profileFieldEndpoints,
  ...userGroupEndpoints,
  ...linkifierEndpoints,
  ...channelFolderEndpoints,
  ...channelEndpoints,
  ...channelEmailEndpoints,
  ...subscriptionEndpoints,
  ...messageEndpoints,
  ...messageFetchEndpoints,
  ...messageEditEndpoints,
  ...reactionEndpoints,
  ...readReceiptEndpoints,
  ...messageReportEndpoints,
  ...submessageEndpoints,
  ...topicEndpoints,
  ...uploadEndpoints,
  ...attachmentEndpoints,
  ...pushEndpoints,
  ...clientDeviceEndpoints,
  ...inviteEndpoints,
  ...realmEmojiEndpoints,
  ...realmIntegrationEndpoints,
  ...realmExportEndpoints,
  ...videoCallEndpoints,
  ...draftEndpoints,
  ...savedSnippetEndpoints,
  ...navigationViewEndpoints,
  ...scheduledMessageEndpoints,
  ...alertWordEndpoints,
  ...realmEndpoints,
];
