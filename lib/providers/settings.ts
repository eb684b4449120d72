import { getEnv } from "@/lib/env";
import type { ProviderSettings } from "./registry";

/** How the console reaches providers (lookups, compensations). */
export function consoleProviderSettings(): ProviderSettings {
  const env = getEnv();
  return {
    defaultBaseUrl: env.SANDBOX_URL,
    stripeApiKey: env.STRIPE_API_KEY,
    timeoutMs: env.PROVIDER_TIMEOUT_MS,
  };
}
