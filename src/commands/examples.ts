// The `Examples:` heading every command's --help ends with: real command lines that run as they are
// from a checkout (on the shipped fixtures; an API's address and key from the environment), each
// with an optional shell comment, so a line can be pasted whole. test/e2e/help-examples.test.ts runs
// every one of them.
export type Example = readonly [command: string, note?: string];

export function examples(...lines: readonly Example[]): string {
  return `\nExamples:\n${lines.map(([command, note]) => `  ${command}${note ? `   # ${note}` : ''}`).join('\n')}`;
}
