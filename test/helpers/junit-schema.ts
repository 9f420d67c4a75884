// JUnit reports checked with xmllint (libxml2 as WebAssembly, the xmllint-wasm devDependency) against
// fixtures/junit/junit.xsd — the format as Jenkins and GitLab read it, written here — and Apache
// Ant's own schema (fixtures/outside/ant-junit-schema, Apache-2.0), the strictest reader; and, when
// JUNIT_XSD names one, against another schema file too (the Jenkins xUnit plugin's junit-10.xsd is
// MIT but kept out of this repository: see fixtures/junit/README.md).
import { readFileSync } from 'node:fs';
import { basename, resolve } from 'node:path';
import { validateXML } from 'xmllint-wasm';

const SCHEMAS = [
  resolve(__dirname, '../../fixtures/junit/junit.xsd'),
  resolve(__dirname, '../../fixtures/outside/ant-junit-schema/JUnit.xsd'),
  ...(process.env.JUNIT_XSD ? [process.env.JUNIT_XSD] : []),
].map((path) => ({
  fileName: basename(path),
  contents: readFileSync(path, 'utf8'),
}));

/** xmllint's errors for the document against each schema (empty when valid against all). */
export async function junitSchemaErrors(xml: string): Promise<string[]> {
  const errors: string[] = [];
  for (const schema of SCHEMAS) {
    const result = await validateXML({ xml: [{ fileName: 'report.xml', contents: xml }], schema: [schema] });
    if (!result.valid) errors.push(...result.errors.map((e) => `${schema.fileName}: ${e.message}`));
  }
  return errors;
}
