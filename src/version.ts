/**
 * What this server claims to be. The feature level is the one whose behaviour the spec describes
 * (spec section 9 names levels up to 496); clients adapt to it.
 */
export const ZULIP_FEATURE_LEVEL = 496;
export const ZULIP_VERSION = "12.0-parley-0.1.0";
export const ZULIP_MERGE_BASE = ZULIP_VERSION;
