import Provider from "oidc-provider";

/**
 * A real OpenID Connect provider (node-oidc-provider) for the SSO tests, started by the
 * e2e server. Anyone may "sign in" at it with any login (its development interactions);
 * the login is the email it vouches for. Reckon must admit only people it provisioned.
 */
export async function startOidcProvider(o: {
  port: number;
  consoleUrl: string;
  clientId: string;
  clientSecret: string;
}) {
  const issuer = `http://127.0.0.1:${o.port}`;
  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: o.clientId,
        client_secret: o.clientSecret,
        redirect_uris: [`${o.consoleUrl}/api/auth/callback/oidc`],
        grant_types: ["authorization_code"],
        response_types: ["code"],
      },
    ],
    async findAccount(_ctx, id) {
      return {
        accountId: id,
        claims: () => ({ sub: id, email: id, email_verified: true, name: id.split("@")[0] }),
      };
    },
    claims: { openid: ["sub"], email: ["email", "email_verified"], profile: ["name"] },
    features: { devInteractions: { enabled: true } },
    cookies: { keys: ["reckon-e2e-oidc-cookie-key"] },
  });
  const server = provider.listen(o.port);
  await new Promise<void>((resolve) => server.once("listening", () => resolve()));
  return { issuer, stop: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}
