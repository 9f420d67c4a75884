// The one undici dispatcher of a client: a keep-alive pool per origin (Agent), behind the proxy named
// in HTTPS_PROXY/HTTP_PROXY unless NO_PROXY excludes the host. TLS verification is always on.
import { readFileSync } from 'node:fs';
import { rootCertificates } from 'node:tls';
import { Agent, EnvHttpProxyAgent, Pool, type Dispatcher } from 'undici';
import { ConfigError } from '../errors.js';
import { addSecret } from '../redact.js';

export interface DispatcherOptions {
  concurrency: number;
  connectTimeoutMs: number;
  caFile?: string;
  env: Record<string, string | undefined>;
}

export function createDispatcher(opts: DispatcherOptions): Dispatcher {
  if (!Number.isInteger(opts.concurrency) || opts.concurrency < 1) {
    throw new ConfigError(`concurrency must be an integer ≥ 1, got ${opts.concurrency}`);
  }
  // rejectUnauthorized set explicitly so that NODE_TLS_REJECT_UNAUTHORIZED=0 cannot turn it off
  const tls = { rejectUnauthorized: true, ...(opts.caFile ? { ca: [...rootCertificates, readCa(opts.caFile)] } : {}) };
  const agentOptions = {
    connections: opts.concurrency,
    // one request per connection at a time: a pipelined POST behind a failed one has an unknown fate
    pipelining: 1,
    connect: { ...tls, timeout: opts.connectTimeoutMs },
  };
  const proxy = proxySettings(opts.env);
  if (!proxy) return new Agent(agentOptions);
  // ProxyAgent replaces `connect` with its tunnelling function, so the target's and the proxy's TLS
  // settings travel separately
  return new EnvHttpProxyAgent({ ...agentOptions, ...proxy, requestTls: tls, proxyTls: tls, clientFactory: tunnelClient } as EnvHttpProxyAgent.Options);
}

/**
 * A proxy that closes the connection while a CONNECT tunnel is being set up fails the tunnel with
 * undici's UND_ERR_SOCKET, which undici 7's Client takes for a recoverable drop of an established
 * connection: it keeps the request queued and reconnects at once, for ever (tens of thousands of
 * CONNECTs a second), and the queued request ignores its AbortSignal (nodejs/undici#3897). Given
 * another code, the Client fails the queued request instead, once per attempt, and our retry policy
 * decides what happens next — as undici's own fix does from 8.10 (ProxyConnectionError).
 */
class ProxyTunnelError extends Error {
  readonly code = 'PROXY_TUNNEL_CLOSED';
  constructor(proxy: string, target: string, cause: unknown) {
    super(`the proxy at ${proxy} closed the connection before the tunnel to ${target} was set up`, { cause });
    this.name = 'ProxyTunnelError';
  }
}

/** The pool ProxyAgent opens to the proxy itself, with its CONNECT failures made final (see above). */
function tunnelClient(origin: URL, options: object): Dispatcher {
  const pool = new Pool(origin, options);
  const connect = pool.connect.bind(pool) as (opts: Dispatcher.ConnectOptions) => Promise<Dispatcher.ConnectData>;
  const wrapped = async (opts: Dispatcher.ConnectOptions): Promise<Dispatcher.ConnectData> => {
    try {
      return await connect(opts);
    } catch (err) {
      // origin without user:password, which must never be printed
      if ((err as { code?: unknown }).code === 'UND_ERR_SOCKET') throw new ProxyTunnelError(origin.origin, String(opts.path), err);
      throw err;
    }
  };
  // ProxyAgent calls connect() in its promise form; any other caller keeps undici's own
  Object.assign(pool, {
    connect: (opts: Dispatcher.ConnectOptions, callback?: unknown) =>
      callback === undefined ? wrapped(opts) : (connect as (o: Dispatcher.ConnectOptions, cb: unknown) => void)(opts, callback),
  });
  return pool;
}

function readCa(path: string): string {
  try {
    const pem = readFileSync(path, 'utf8');
    if (!pem.includes('-----BEGIN CERTIFICATE-----')) {
      throw new ConfigError(`the CA file ${path} holds no PEM certificate`, { suggestion: 'give a PEM file (-----BEGIN CERTIFICATE-----)' });
    }
    return pem;
  } catch (err) {
    if (err instanceof ConfigError) throw err;
    throw new ConfigError(`cannot read the CA file ${path}: ${(err as NodeJS.ErrnoException).code ?? 'error'}`);
  }
}

interface ProxySettings {
  httpProxy: string;
  httpsProxy: string;
  noProxy: string;
}

/**
 * The proxy variables, lower case first as curl does. Always passed explicitly ('' for unset) so
 * undici does not fall back to process.env behind our back. Credentials are registered as secrets
 * before anything can print them.
 */
function proxySettings(env: Record<string, string | undefined>): ProxySettings | undefined {
  const httpsProxy = env.https_proxy ?? env.HTTPS_PROXY ?? '';
  const httpProxy = env.http_proxy ?? env.HTTP_PROXY ?? '';
  if (!httpsProxy && !httpProxy) return undefined;
  checkProxy('HTTPS_PROXY', httpsProxy);
  checkProxy('HTTP_PROXY', httpProxy);
  return { httpProxy, httpsProxy, noProxy: env.no_proxy ?? env.NO_PROXY ?? '' };
}

function checkProxy(name: string, value: string): void {
  if (!value) return;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    // not echoed: a malformed value may still hold a password
    throw new ConfigError(`${name} is set but is not a valid URL`, { suggestion: `e.g. ${name}=http://proxy.example.com:3128` });
  }
  // the password, not the user name: masking a common word like "proxy" everywhere would garble output
  addSecret(url.password);
  addSecret(safeDecode(url.password));
  if (url.password) {
    addSecret(`${url.username}:${url.password}`);
    addSecret(Buffer.from(`${safeDecode(url.username)}:${safeDecode(url.password)}`).toString('base64'));
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new ConfigError(`${name} must be an http:// or https:// proxy (got ${url.protocol}//)`);
  }
}

function safeDecode(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}
