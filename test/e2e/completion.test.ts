// `batch-sync completion bash|zsh|fish`: the script a shell loads so commands and flags complete on
// Tab. The bash one is loaded into a real bash and asked, as the shell asks it on Tab.
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { spawnCli, tempFiles } from '../helpers/cli.js';

/** What bash offers for the words typed so far (the last one being completed). */
function bashCompletes(script: string, words: string[]): string[] {
  const dir = tempFiles({});
  const file = join(dir, 'batch-sync.bash');
  writeFileSync(file, script);
  const line = `source ${file}; COMP_WORDS=(${words.map((w) => `'${w}'`).join(' ')}); COMP_CWORD=${words.length - 1}; _batch_sync; printf '%s\\n' "\${COMPREPLY[@]}"`;
  return execFileSync('bash', ['-c', line], { cwd: dir }).toString().split('\n').filter(Boolean);
}

describe('bash', () => {
  test('a command and a flag complete', async () => {
    const r = await spawnCli(['completion', 'bash']);
    expect(r.code, r.stderr).toBe(0);
    expect(bashCompletes(r.stdout, ['batch-sync', 'pu'])).toEqual(['push']);
    expect(bashCompletes(r.stdout, ['batch-sync', 'push', '--sand'])).toEqual(['--sandbox']);
    expect(bashCompletes(r.stdout, ['batch-sync', 'validate', '--no-'])).toEqual([]);
    expect(bashCompletes(r.stdout, ['batch-sync', 'push', '--no-hold'])).toEqual(['--no-hold-dependents']);
    // every command's flags come from its options: one added to a table completes with no change here
    expect(bashCompletes(r.stdout, ['batch-sync', 'inspect', '--sh'])).toEqual(['--sheet']);
  });
});

describe('zsh and fish', () => {
  test('each names every command and its flags', async () => {
    const zsh = await spawnCli(['completion', 'zsh']);
    expect(zsh.code).toBe(0);
    expect(zsh.stdout).toMatch(/^#compdef batch-sync/);
    expect(zsh.stdout).toContain("'push:send files to the API in dependency order and report every row'");
    expect(zsh.stdout).toMatch(/push\) _arguments .*'--sandbox\[/);
    const fish = await spawnCli(['completion', 'fish']);
    expect(fish.code).toBe(0);
    expect(fish.stdout).toContain('complete -c batch-sync -n __fish_use_subcommand -a validate');
    expect(fish.stdout).toContain("complete -c batch-sync -n '__fish_seen_subcommand_from push' -l sandbox");
    expect(fish.stdout).toContain("complete -c batch-sync -n '__fish_seen_subcommand_from push' -l profile -s p");
  });

  test('another shell is a usage error', async () => {
    const r = await spawnCli(['completion', 'powershell']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^error: .*powershell.*Allowed choices are bash, zsh, fish/);
  });
});
