// The port of the runner's command parser (test/helpers/workflow-commands.ts) held to the runner's
// own expectations: the cases of actions/runner's src/Test/L0/Worker/ActionCommandL0.cs and
// ActionCommandManagerL0.cs (commit 258d6c8), plus the forms issue 27 item 5 saw act on a real
// runner. If the port were too lenient, the property tests that rely on it would prove nothing.
import { describe, expect, test } from 'vitest';
import { parseWorkflowCommands, RunnerModel, runnerLines, stepCommands } from '../helpers/workflow-commands.js';

const one = (line: string) => parseWorkflowCommands(line);

describe("the runner's own cases (ActionCommandL0.cs, registered here as 'error')", () => {
  test.each([
    ['##[error k1=v1;]msg', { k1: 'v1' }, 'msg'],
    ['##[error]', {}, ''],
    ['##[error k1=%3B=%0D=%0A=%5D;]%3B-%0D-%0A-%5D', { k1: ';=\r=\n=]' }, ';-\r-\n-]'],
    ['##[error k1=%253B=%250D=%250A=%255D;]%253B-%250D-%250A-%255D', { k1: '%3B=%0D=%0A=%5D' }, '%3B-%0D-%0A-%5D'],
    ['##[error k1=;k2=;]', {}, ''],
    ['>>>   ##[error k1=v1;]msg', { k1: 'v1' }, 'msg'],
    ['::error k1=v1,::msg', { k1: 'v1' }, 'msg'],
    ['::error::', {}, ''],
    ['::error k1=;=%2C=%0D=%0A=]=%3A,::;-%0D-%0A-]-:-,', { k1: ';=,=\r=\n=]=:' }, ';-\r-\n-]-:-,'],
    ['::error k1=;=%252C=%250D=%250A=]=%253A,::;-%250D-%250A-]-:-,', { k1: ';=%2C=%0D=%0A=]=%3A' }, ';-%0D-%0A-]-:-,'],
    ['::error k1=,k2=,::', {}, ''],
    ['::error k1=v1::', { k1: 'v1' }, ''],
    ['   ::error k1=v1,::msg', { k1: 'v1' }, 'msg'],
  ])('%j', (line, properties, message) => {
    expect(one(line)).toEqual([{ command: 'error', properties, message }]);
  });

  test("'   >>>   ::error k1=v1,::msg' is no command: the :: form must start the line", () => {
    expect(one('   >>>   ::error k1=v1,::msg')).toEqual([]);
  });

  test('stop-commands: nothing until the token, in either form; an empty or registered token stops nothing', () => {
    const runner = new RunnerModel();
    for (const line of ['##[stop-commands]stopToken', '##[set-env name=foo]bar', '##[stopToken]', '##[set-env name=foo]bar']) runner.feed(line);
    expect(runner.commands.map((c) => c.command)).toEqual(['stop-commands', 'stopToken', 'set-env']);
    for (const token of ['', 'set-env', 'stop-commands', 'pause-logging']) {
      const r = new RunnerModel();
      r.feed(`::stop-commands::${token}`);
      expect(r.stopped).toBe(false);
    }
    const v2 = new RunnerModel();
    for (const line of ['::stop-commands::abc123', '::error::hidden', '::abc123::', '::error::seen']) v2.feed(line);
    expect(v2.commands.map((c) => c.message)).toEqual(['abc123', '', 'seen']);
  });

  test('::add-mask:: registers the value; command names are case-insensitive', () => {
    const runner = new RunnerModel();
    runner.feed('::add-mask::abc%0Ddef');
    runner.feed('::ERROR::loud');
    expect(runner.masks).toEqual(['abc\rdef']);
    expect(runner.commands.at(-1)).toEqual({ command: 'ERROR', properties: {}, message: 'loud' });
  });
});

describe('what issue 27 item 5 saw a real runner do', () => {
  test('##[ anywhere in a line, with ; properties', () => {
    expect(one('deals.csv:3  D-1  title: "##[error file=evil.yml;line=1]pwned"')).toEqual([
      { command: 'error', properties: { file: 'evil.yml', line: '1' }, message: 'pwned"' },
    ]);
  });

  test("a property value's leading '=' is dropped (String.Split with RemoveEmptyEntries), inner ones kept", () => {
    expect(one('::error file==evil.csv,line=2,title=a=b::m')[0]!.properties).toEqual({ file: 'evil.csv', line: '2', title: 'a=b' });
  });

  test('a lone CR ends a line for the runner', () => {
    expect(runnerLines('ok\r::error::x\r\nlast\n')).toEqual(['ok', '::error::x', 'last']);
    expect(one('text\r::warning::forged')).toEqual([{ command: 'warning', properties: {}, message: 'forged' }]);
  });

  test('a zero-width character does not hide ##[ from an ICU runner', () => {
    expect(one('x #\u200b#[add-mask]secret')).toEqual([]);
    expect(one('x \u200b##[add-mask]secret')).toEqual([{ command: 'add-mask', properties: {}, message: 'secret' }]);
    expect(one('\u200b::error::x')).toEqual([]);
  });

  test("an annotation's file under the workspace is made relative", () => {
    expect(parseWorkflowCommands('::error file=/ws/repo/=x.csv,line=2::m', '/ws/repo')[0]!.properties.file).toBe('=x.csv');
    expect(parseWorkflowCommands('::error file=/elsewhere/x.csv::m', '/ws/repo')[0]!.properties.file).toBe('/elsewhere/x.csv');
  });

  test("stdout and stderr interleave as the runner's two reading tasks allow: a stop on one stream does not order the other", () => {
    const stdout = '::stop-commands::tok\nreport\n::tok::\n';
    const stderr = '##[error]from stderr\n';
    expect(stepCommands(stdout, stderr, [false]).commands.map((c) => c.command)).toEqual(['error', 'stop-commands', 'tok']);
    expect(stepCommands(stdout, stderr, [true, false]).commands.map((c) => c.command)).toEqual(['stop-commands', 'tok']);
  });
});
