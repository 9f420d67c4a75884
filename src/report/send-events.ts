// What the HTTP client says along the way (send/types.ts SendEvent), as log lines: retries,
// warnings, and the waits the server asks for, said when they start so a long one is never a silent
// stall. Counts, names and times only, never a payload value.
import type { SendEvent } from '../send/types.js';

const seconds = (ms: number) => (ms / 1000).toFixed(1);

/** The line for an event, and whether it shows on --quiet runs too (warnings do). */
export function sendEventLine(e: SendEvent): { text: string; level: 'info' | 'error' } {
  switch (e.type) {
    case 'retry':
      return { text: `retrying ${e.resource} batch ${e.batchId} in ${seconds(e.delayMs)} s (attempt ${e.attempt} failed: ${e.reason})`, level: 'info' };
    case 'wait':
      return {
        text: e.pacing
          ? `the API's ${e.header} allows one request every ${seconds(e.ms)} s: requests are paced to it`
          : `the API asked for a pause: no request goes for ${seconds(e.ms)} s (${e.header})`,
        level: 'info',
      };
    case 'warning':
      return { text: `warning: ${e.message}`, level: 'error' };
  }
}
