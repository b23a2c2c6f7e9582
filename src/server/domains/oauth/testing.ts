import { DEMO_SIS_CLIENT } from "../../seed/demo-accounts";
import type { TestApp } from "../../test/harness";

/** For tests: a token request as a client sends it, form-encoded. */
export function tokenRequest(
  t: TestApp,
  fields: Record<string, string>,
  headers: Record<string, string> = {},
) {
  return t.request("/oauth/token", {
    method: "POST",
    body: new URLSearchParams(fields).toString(),
    headers: { "content-type": "application/x-www-form-urlencoded", ...headers },
  });
}

/** For tests: an access token of the demo SIS client, for all its scopes or the ones named. */
export async function demoSisToken(t: TestApp, scope?: string): Promise<string> {
  const response = await tokenRequest(t, {
    grant_type: "client_credentials",
    client_id: DEMO_SIS_CLIENT.clientId,
    client_secret: DEMO_SIS_CLIENT.clientSecret,
    ...(scope ? { scope } : {}),
  });
  if (response.status !== 200)
    throw new Error(`token request failed: ${response.status} ${await response.text()}`);
  return ((await response.json()) as { access_token: string }).access_token;
}
