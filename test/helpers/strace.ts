// The system calls a spawned CLI makes, as strace(1) writes them with `-f -y` (threads followed, file
// descriptors shown with their paths): what reached the disk and the sockets, and in what order. A
// call that another thread's line interrupted is written twice (`<unfinished ...>`, then
// `<... name resumed>`): it starts at the first line and has finished at the second.
import { spawnSync } from 'node:child_process';

/** strace is installed and may trace a child here (ptrace can be forbidden in containers). */
export function straceWorks(): boolean {
  return spawnSync('strace', ['-f', '-qq', '-o', '/dev/null', process.execPath, '-e', '0'], { stdio: 'ignore' }).status === 0;
}

export interface Syscall {
  pid: number;
  name: string;
  /** The call's arguments as strace wrote them (strings escaped, as in C). */
  args: string;
  /** Its result as written, e.g. `0` or `-1 ENOENT (No such file or directory)`. */
  result: string;
  /** Positions in the trace: when it started and when it had finished. */
  start: number;
  end: number;
}

const WHOLE = /^(\d+) +(\w+)\((.*)\) += (.*)$/;
const UNFINISHED = /^(\d+) +(\w+)\((.*) <unfinished \.\.\.>$/;
const RESUMED = /^(\d+) +<\.\.\. (\w+) resumed>(.*)\) += (.*)$/;

export function parseTrace(text: string): Syscall[] {
  const calls: Syscall[] = [];
  const open = new Map<number, Syscall>();
  for (const [at, line] of text.split('\n').entries()) {
    const whole = WHOLE.exec(line);
    const unfinished = whole ? null : UNFINISHED.exec(line);
    if (whole) calls.push({ pid: Number(whole[1]), name: whole[2]!, args: whole[3]!, result: whole[4]!, start: at, end: at });
    else if (unfinished) {
      const call = { pid: Number(unfinished[1]), name: unfinished[2]!, args: unfinished[3]!, result: '', start: at, end: -1 };
      open.set(call.pid, call);
      calls.push(call);
    } else {
      const resumed = RESUMED.exec(line);
      const call = resumed && open.get(Number(resumed[1]));
      if (!call || call.name !== resumed![2]) continue;
      open.delete(call.pid);
      call.args += resumed![3];
      call.result = resumed![4]!;
      call.end = at;
    }
  }
  return calls.filter((c) => c.end >= 0);
}
