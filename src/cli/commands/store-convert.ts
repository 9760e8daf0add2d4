/** Moving a deployment between stores (filled in below). */
import type { Command } from "../command-spec.js";

export const STORE_COMMANDS: Record<string, Command> = {};
