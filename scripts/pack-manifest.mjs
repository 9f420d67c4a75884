// `npm pack` and `npm publish` put package.json in the package as it is on disk when they pack.
// A clone needs `prepare` (`npm ci` builds dist/ with it); an installed package must not carry it:
// npm 11 warns on `npm install -g` about any install-time script, and dist/ is in the package
// already. `prepack` runs this with `strip` (the original kept beside it), `postpack` with `restore`.
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';

const MANIFEST = 'package.json';
const KEPT = 'package.json.unpacked';
/** The lifecycle scripts npm runs when a package is installed. */
const INSTALL_TIME = ['preinstall', 'install', 'postinstall', 'prepare'];

const step = process.argv[2];
// a pack interrupted between the two steps left the original beside the stripped one: put it back first
if (existsSync(KEPT)) renameSync(KEPT, MANIFEST);
if (step === 'strip') {
  const text = readFileSync(MANIFEST, 'utf8');
  const manifest = JSON.parse(text);
  for (const name of INSTALL_TIME) delete manifest.scripts?.[name];
  writeFileSync(KEPT, text);
  writeFileSync(MANIFEST, `${JSON.stringify(manifest, null, 2)}\n`);
} else if (step !== 'restore') {
  process.stderr.write('usage: node scripts/pack-manifest.mjs strip|restore\n');
  process.exitCode = 2;
}
