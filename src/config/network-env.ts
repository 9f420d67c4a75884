// What the environment says about the network, read here (config/ and bin/ are the only readers of
// the environment) and handed to the HTTP client as plain values.

/** The proxy variables undici's EnvHttpProxyAgent would read, in both spellings (send/dispatcher.ts picks). */
const PROXY_VARIABLES = ['https_proxy', 'HTTPS_PROXY', 'http_proxy', 'HTTP_PROXY', 'no_proxy', 'NO_PROXY'] as const;

export interface NetworkEnv {
  proxyEnv: Record<string, string | undefined>;
  /** NODE_TLS_REJECT_UNAUTHORIZED=0: the client ignores it (it always verifies) and says so. */
  tlsVerifyOffInEnv: boolean;
}

export function networkEnv(env: Record<string, string | undefined>): NetworkEnv {
  const proxyEnv: Record<string, string | undefined> = {};
  for (const name of PROXY_VARIABLES) if (env[name] !== undefined) proxyEnv[name] = env[name];
  return { proxyEnv, tlsVerifyOffInEnv: env.NODE_TLS_REJECT_UNAUTHORIZED === '0' };
}
