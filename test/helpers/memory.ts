// Memory in tests is a ratio against a baseline measured in the same run, never a number of MB: what
// a Node version costs changes between versions while what our code keeps does not. Node 24's V8
// grows the young generation as a run goes on (a streaming read's peak heap, garbage included, was
// +14 MB on Node 20 and +53 MB on Node 24), and its start-up weighs more. So the live heap is
// measured (after a full collection: garbage and the young generation's size do not count), and
// compared with a control measured here: what holding a tenth of the rows costs.
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

setFlagsFromString('--expose_gc');
const gc = runInNewContext('gc') as () => void;

/**
 * Bytes live on the V8 heap, plus, with `external`, in Buffers and ArrayBuffers outside it. Two
 * full collections with a turn of the event loop between them: Node 24 frees the backing stores of
 * dead ArrayBuffers on a background thread, and right after one collection up to 15 MB of them
 * still counted, now and then.
 */
async function liveBytes(external = false): Promise<number> {
  gc();
  await new Promise((done) => setTimeout(done, 0));
  gc();
  const m = process.memoryUsage();
  return m.heapUsed + (external ? m.external : 0);
}

/**
 * The largest live growth over the start that `work` shows at its checkpoints (it awaits
 * `checkpoint()` now and then, e.g. every tenth of its rows), in bytes.
 */
export async function liveGrowth(work: (checkpoint: () => Promise<void>) => Promise<void>, external = false): Promise<number> {
  const start = await liveBytes(external);
  let peak = start;
  await work(async () => {
    peak = Math.max(peak, await liveBytes(external));
  });
  return peak - start;
}

export const mb = (bytes: number) => `${(bytes / 2 ** 20).toFixed(1)} MB`;
