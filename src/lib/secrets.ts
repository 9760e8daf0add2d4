/** Random tokens and password hashing. */
import { randomBytes, randomInt, timingSafeEqual } from "node:crypto";
import { hash, verify } from "@node-rs/argon2";

const ALPHANUMERIC = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";

/** Zulip API keys are exactly 32 ASCII letters or digits (zulip-facts section c). */
export function generateApiKey(): string {
  let key = "";
  for (let i = 0; i < 32; i++) key += ALPHANUMERIC[randomInt(ALPHANUMERIC.length)];
  return key;
}

export const API_KEY_PATTERN = /^[A-Za-z0-9]{32}$/;

/** A URL-safe random token (confirmation keys, session keys, upload paths). */
export function randomToken(bytes = 18): string {
  return randomBytes(bytes).toString("base64url");
}

/** Compares secrets without leaking where they differ through timing. */
export function constantTimeEqual(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/**
 * Argon2id with OWASP's recommended minimum (19 MiB, 2 passes, 1 lane): about 20–30 ms per hash
 * on this class of machine, which bounds password-guessing cost without stalling logins.
 */
export const ARGON2_OPTIONS = { algorithm: 2 /* Argon2id (a const enum we cannot import under isolatedModules) */, memoryCost: 19456, timeCost: 2, parallelism: 1 };

export function hashPassword(password: string): Promise<string> {
  return hash(password, ARGON2_OPTIONS);
}

export async function verifyPassword(passwordHash: string | null, password: string): Promise<boolean> {
  if (!passwordHash) return false;
  try {
    return await verify(passwordHash, password);
  } catch {
    return false;
  }
}
