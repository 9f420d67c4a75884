// Preloaded (`node --import`) into a child: records every module URL the ES loader resolves and
// writes the list to $MODULE_PROBE_FILE on exit, so a test can see what a command loaded.
import { writeFileSync } from 'node:fs';
import { register } from 'node:module';
import { MessageChannel } from 'node:worker_threads';

const file = process.env.MODULE_PROBE_FILE;
if (file) {
  const seen = new Set();
  const { port1, port2 } = new MessageChannel();
  port1.on('message', (url) => seen.add(url));
  port1.unref();
  const hooks = `export async function resolve(specifier, context, next) {
    const r = await next(specifier, context);
    globalThis.port?.postMessage(r.url);
    return r;
  }
  export function initialize({ port }) { globalThis.port = port; }`;
  register(`data:text/javascript,${encodeURIComponent(hooks)}`, { data: { port: port2 }, transferList: [port2] });
  process.on('exit', () => writeFileSync(file, JSON.stringify([...seen])));
}
