// Reads GitHub Actions workflow commands back as the runner does: `::name k=v,k=v::message`, with
// the runner's unescaping (%25 %0D %0A in data; also %3A %2C in properties).
export interface WorkflowCommand {
  command: string;
  properties: Record<string, string>;
  message: string;
}

const unescapeData = (s: string) => s.replace(/%0D/g, '\r').replace(/%0A/g, '\n').replace(/%25/g, '%');
const unescapeProperty = (s: string) => s.replace(/%0D/g, '\r').replace(/%0A/g, '\n').replace(/%3A/g, ':').replace(/%2C/g, ',').replace(/%25/g, '%');

export function parseWorkflowCommands(text: string): WorkflowCommand[] {
  const out: WorkflowCommand[] = [];
  for (const line of text.split('\n')) {
    const m = /^::([a-z-]+)(?: ([^:]*))?::(.*)$/.exec(line);
    if (!m) continue;
    const properties: Record<string, string> = {};
    for (const pair of (m[2] ?? '').split(',').filter(Boolean)) {
      const eq = pair.indexOf('=');
      properties[pair.slice(0, eq)] = unescapeProperty(pair.slice(eq + 1));
    }
    out.push({ command: m[1]!, properties, message: unescapeData(m[3]!) });
  }
  return out;
}
