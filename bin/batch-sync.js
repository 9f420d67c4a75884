#!/usr/bin/env node
// The published entry point: the compiled CLI lives in dist/ (built by `npm ci` through `prepare`).
// A low open-file limit is caught here, before the CLI is loaded: Node's module loader opens every
// file of the import graph at once and, out of descriptors, fails with a raw EMFILE stack (or, some
// runs, a false "Cannot find package"). dist/fd-limit.js imports nothing, so it always loads.
// Before that, the Node.js version: below the supported lines it refuses, above them it warns, and on
// Node 20 (past its end of life) it tells a person at a terminal, never a script or a machine format
// (dist/node-version.js imports nothing either, and parses on any Node with top-level await).
import { fdLimitMessage, openFileLimit, startupLimitMessage } from '../dist/fd-limit.js';
import { nodeVersionVerdict } from '../dist/node-version.js';

process.exitCode = await run();

async function run() {
  const node = nodeVersionVerdict(process.versions.node);
  // nothing was read or sent yet: exit 2, as for any other problem found before sending
  if (node.error) return refuse(node.error);
  if (node.warning) process.stderr.write(`warning: ${node.warning}\n`);
  if (node.notice && process.stderr.isTTY) process.stderr.write(`note: ${node.notice}\n`);
  // read now: after an EMFILE there may be no descriptor left to read it with
  const limit = openFileLimit();
  const tooLow = startupLimitMessage(limit);
  if (tooLow) return refuse(tooLow);
  let main;
  try {
    ({ main } = await import('../dist/main.js'));
  } catch (error) {
    const message = fdLimitMessage(error, 'while starting batch-sync', limit);
    if (!message) throw error;
    return refuse(message);
  }
  return main(process.argv);
}

function refuse(message) {
  process.stderr.write(`error: ${message}\n`);
  return 2;
}
