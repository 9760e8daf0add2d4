/**
 * The invitation email (issue 6, item 8): who invites whom to which organization, and the join
 * link `{realm_url}/join/{confirmation_key}/` that opens the sign-up form (http/join-routes.ts).
 */
import type { Config } from "../config.js";
import { realmUrl } from "../lib/realm-url.js";
import type { MailMessage } from "../mail/transport.js";
import type { RealmRow, UserRow } from "../store/types.js";

export function joinUrl(config: Config, realm: Pick<RealmRow, "string_id">, confirmationKey: string): string {
  return `${realmUrl(config.externalHost, realm.string_id)}/join/${confirmationKey}/`;
}

export interface InvitationMailInput {
  realm: RealmRow;
  referrer: UserRow;
  to: string;
  confirmationKey: string;
  expiresAt: number | null;
  /** When the mail is sent (UTC seconds). */
  now: number;
}

export function invitationMail(config: Config, input: InvitationMailInput): MailMessage {
  const { realm, referrer } = input;
  const expiry =
    input.expiresAt === null
      ? "This invitation does not expire."
      : `This invitation expires on ${new Date(input.expiresAt * 1000).toUTCString()}.`;
  const text = [
    "Hello,",
    "",
    `${referrer.full_name} has invited you to join ${realm.name} (${realmUrl(config.externalHost, realm.string_id)}).`,
    "",
    "To accept the invitation and create your account, open this link:",
    "",
    joinUrl(config, realm, input.confirmationKey),
    "",
    expiry,
    "",
    "If you were not expecting this invitation, you can ignore this email.",
    "",
  ].join("\n");
  return {
    from: config.mailFrom,
    to: input.to,
    subject: `${referrer.full_name} invited you to join ${realm.name}`,
    text,
    date: new Date(input.now * 1000),
  };
}
