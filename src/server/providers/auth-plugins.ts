import type { BetterAuthPlugin } from "better-auth";
import type { Config } from "../config.js";

/** better-auth plugins that let a signed-in user link the suite, codehost and notes providers. */
export function providerAuthPlugins(_config: Config): BetterAuthPlugin[] {
  return [];
}
