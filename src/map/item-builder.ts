// Setting dotted paths (`amount.value`, `stages[1].occurredAt`) on a fresh item, with the path split
// once per file. Objects are created only when one of their fields has a value, so an optional
// `currentStage` whose cells are all empty is simply absent.

type Step = { key: string; index?: number };
export type Setter = (item: Record<string, unknown>, value: unknown) => void;

function parsePath(path: string): Step[] {
  return path.split('.').map((part) => {
    const m = /^(.+)\[(\d+)\]$/.exec(part);
    return m ? { key: m[1]!, index: Number(m[2]) } : { key: part };
  });
}

export function compileSetter(path: string): Setter {
  const steps = parsePath(path);
  if (steps.length === 1 && steps[0]!.index === undefined) {
    const key = steps[0]!.key;
    return (item, value) => {
      item[key] = value;
    };
  }
  return (item, value) => {
    let node: Record<string, unknown> = item;
    for (let i = 0; i < steps.length; i++) {
      const { key, index } = steps[i]!;
      const lastStep = i === steps.length - 1;
      if (index === undefined) {
        if (lastStep) node[key] = value;
        else node = (node[key] ??= {}) as Record<string, unknown>;
        continue;
      }
      const list = (node[key] ??= []) as Record<string, unknown>[];
      if (lastStep) (list as unknown[])[index] = value;
      else node = list[index] ??= {};
    }
  };
}

/** Arrays set by index may have holes (`stages[0]` empty, `stages[1]` given): close them up. */
export function compactArrays(item: Record<string, unknown>, keys: readonly string[]): void {
  for (const key of keys) {
    const list = item[key];
    if (!Array.isArray(list)) continue;
    const dense = list.filter((x) => x !== undefined); // filter skips holes as well
    if (dense.length !== list.length) item[key] = dense;
  }
}
