import fc from 'fast-check';
import { expect, test } from 'vitest';
import { createCollector } from '../../src/report/collector.js';
import { workflowCommand } from '../../src/report/render-github.js';
import { junitXml } from '../../src/report/render-junit.js';
import { buildRunReport } from '../../src/report/run-report.js';
import { junitSchemaErrors } from '../helpers/junit-schema.js';
import { parseWorkflowCommands } from '../helpers/workflow-commands.js';

// any code unit, lone surrogates and C0 controls included
const anyText = fc.string({ unit: 'binary', maxLength: 40 });

test('a workflow command reads back as written, whatever its file, title and message hold', () => {
  fc.assert(
    fc.property(anyText, anyText, anyText, fc.nat(), (file, title, message, line) => {
      const command = workflowCommand('error', { file, line: line + 1, title }, message);
      expect(command).not.toMatch(/[\r\n]/);
      const [parsed] = parseWorkflowCommands(command);
      // the runner drops a value's leading '='s (no escape keeps them: render-github gives such a file absolute)
      const read = (v: string) => v.replace(/^=+/, '');
      expect(parsed).toEqual({
        command: 'error',
        properties: { ...(read(file) ? { file: read(file) } : {}), line: String(line + 1), ...(read(title) ? { title: read(title) } : {}) },
        message,
      });
    }),
    { numRuns: 300 },
  );
});

test('the JUnit XML is valid against the Jenkins schema whatever the file names, ids and details hold', async () => {
  await fc.assert(
    fc.asyncProperty(
      fc.array(fc.record({ file: anyText, id: anyText, detail: anyText, field: anyText, invalid: fc.boolean() }), { minLength: 1, maxLength: 8 }),
      async (rows) => {
        const collector = createCollector();
        for (const [i, r] of rows.entries())
          collector.record({
            outcome: r.invalid ? 'invalid' : 'rejected',
            resource: 'deal',
            file: r.file,
            line: i + 2,
            externalId: r.id,
            field: r.field,
            message: r.invalid ? 'INVALID' : 'VALIDATION_ERROR',
            detail: r.detail,
          });
        collector.record({ outcome: 'accepted', resource: 'account', file: 'accounts.csv', line: 2, message: 'ACCEPTED', detail: '' });
        const at = new Date('2026-11-24T02:15:00Z');
        const xml = junitXml(buildRunReport({ runId: '20261124T021500Z-abcd', mode: 'validate', startedAt: at, endedAt: at }, collector));
        expect(await junitSchemaErrors(xml)).toEqual([]);
      },
    ),
    { numRuns: 40 },
  );
}, 60_000);
