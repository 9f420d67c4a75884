// Architecture rules, run by `npm test` (npm run lint): the stages import one way, in the data's
// order, and nothing imports in a circle. ARCHITECTURE.md explains the layers.
//
// Layers, lowest first; a module may import its own layer and those below it, never one above:
//   0  contract/, util/ and the leaf modules (errors, redact, shorten, version, fd-limit, node-version)
//   1  read/   2  map/   3  validate/   4  plan/   5  state/   6  sandbox/   7  send/   8  report/
//   9  config/   10  rows/   11  run/   12  commands/   13  main.ts
const LAYERS = [
  ['src/(contract|util)/', 'src/(errors|redact|shorten|version|fd-limit|node-version)\\.ts$'],
  ['src/read/'],
  ['src/map/'],
  ['src/validate/'],
  ['src/plan/'],
  ['src/state/'],
  ['src/sandbox/'],
  ['src/send/'],
  ['src/report/'],
  ['src/config/'],
  ['src/rows/'],
  ['src/run/'],
  ['src/commands/'],
  ['src/main\\.ts$'],
];

const NAMES = ['base', 'read', 'map', 'validate', 'plan', 'state', 'sandbox', 'send', 'report', 'config', 'rows', 'run', 'commands', 'main'];

const upward = LAYERS.slice(0, -1).map((paths, i) => ({
  name: `no-upward-import-from-${NAMES[i]}`,
  comment: `${NAMES[i]} may import only its own layer and those below it (${NAMES.slice(0, i).join(', ') || 'none'})`,
  severity: 'error',
  from: { path: paths.map((p) => `^${p}`) },
  to: { path: LAYERS.slice(i + 1).flat().map((p) => `^${p}`) },
}));

module.exports = {
  forbidden: [
    { name: 'no-circular', comment: 'a cycle makes the reading order undefined', severity: 'error', from: {}, to: { circular: true } },
    ...upward,
    { name: 'src-not-to-test', severity: 'error', from: { path: '^src/' }, to: { path: '^(test|fixtures)/' } },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default'], extensions: ['.ts', '.js'] },
  },
};
