/**
 * Zulip's REST API as data for the coverage test (api-coverage.test.ts): where the operations that
 * Zulip's API index (../shared/reference/zulip-rest-endpoints.md) names but the FL 378 OpenAPI
 * document does not describe are routed, and which operations Parley does not serve, each with
 * its reason. Routes were read from Zulip's API documentation pages (zulip.com/api/<slug>, and
 * chat.zulip.org's for the Zulip 12 ones) and zerver/views; written down here in our own words.
 */

/** Index slugs absent from the FL 378 document: their method and path (with the feature level that added the newer ones). */
export const NEWER_ROUTES: Readonly<Record<string, string>> = {
  // Older operations the document happens not to describe.
  "update-realm": "PATCH /realm",
  "update-profile-data": "PATCH /users/me/profile_data",
  "remove-profile-data": "DELETE /users/me/profile_data",
  "check-thumbnail-status": "GET /thumbnail/status/{realm_id_str}/{filename}", // FL 479
  "report-message": "POST /messages/{message_id}/report", // FL 382
  "create-message-reminder": "POST /reminders", // FL 381
  "get-reminders": "GET /reminders", // FL 399
  "delete-reminder": "DELETE /reminders/{reminder_id}", // FL 399
  "get-navigation-views": "GET /navigation_views", // FL 390
  "add-navigation-view": "POST /navigation_views", // FL 390
  "edit-navigation-view": "PATCH /navigation_views/{fragment}", // FL 390
  "remove-navigation-view": "DELETE /navigation_views/{fragment}", // FL 390
  "get-user-channels": "GET /users/{user_id}/channels", // FL 440
  "update-subscription-property": "PATCH /users/me/subscriptions/{stream_id}", // the single-setting form
  "create-channel": "POST /channels/create", // FL 417
  "create-channel-folder": "POST /channel_folders/create", // FL 389
  "get-channel-folders": "GET /channel_folders", // FL 389
  "patch-channel-folders": "PATCH /channel_folders", // FL 414
  "update-channel-folder": "PATCH /channel_folders/{channel_folder_id}", // FL 389
  "update-status-for-user": "POST /users/{user_id}/status", // FL 407
  "regenerate-api-key": "POST /users/me/api_key/regenerate",
  "get-bot-api-key": "GET /bots/{bot_id}/api_key", // FL 463
  "regenerate-bot-api-key": "POST /bots/{bot_id}/api_key/regenerate",
  "get-realm-domains": "GET /realm/domains",
  "add-realm-domain": "POST /realm/domains",
  "patch-realm-domain": "PATCH /realm/domains/{domain}",
  "delete-realm-domain": "DELETE /realm/domains/{domain}",
  "test-welcome-bot-custom-message": "POST /realm/test_welcome_bot_custom_message", // FL 416
  "get-bot-storage": "GET /bot_storage",
  "update-bot-storage": "PUT /bot_storage",
  "remove-bot-storage": "DELETE /bot_storage",
  "jwt-fetch-api-key": "POST /jwt/fetch_api_key",
  "dev-list-users": "GET /dev_list_users",
  "register-client-device": "POST /register_client_device", // FL 468
  "remove-client-device": "POST /remove_client_device", // FL 470
  "e2ee-test-notify": "POST /mobile_push/e2ee/test_notification",
  "register-push-device": "POST /mobile_push/register", // FL 406
  "register-remote-push-device": "POST /remotes/push/e2ee/register", // FL 406, on the bouncer
  "create-constructor-groups-video-call": "POST /calls/constructorgroups/create", // FL 460
  "create-nextcloud-talk-video-call": "POST /calls/nextcloud_talk/create", // FL 465
  "create-webex-video-call": "POST /calls/webex/create", // FL 493
};

/** Index entries that are documentation pages, not operations. */
export const DOC_PAGES: ReadonlySet<string> = new Set(["construct-narrow", "real-time-events", "mobile-notifications", "outgoing-webhook-payload"]);

/** Operations Parley does not serve, on purpose. */
export const DELIBERATELY_ABSENT: Readonly<Record<string, string>> = {
  "dev-fetch-api-key": "development only: Zulip serves it only with its development authentication backend",
  "dev-list-users": "development only: lists the accounts of Zulip's development login page",
  "register-remote-push-device": "served by the push bouncer (push.zulipchat.com) to self-hosted servers, never by a chat server",
  "rest-error-handling": "a documentation page written as an operation (how errors look), with no endpoint behind it",
  "zulip-outgoing-webhooks": "describes the payload a server POSTs to an outgoing-webhook bot's URL; the bot serves it, not the chat server",
};

/**
 * NOT YET BUILT — operations other helpers are building while this list was written, with who
 * builds them. The test fails once one of them is served, so that its entry goes when the branch
 * is merged; at the end of issue 17 this list is empty.
 */
export const NOT_YET_BUILT: Readonly<Record<string, string>> = {};
