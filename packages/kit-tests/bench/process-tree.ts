import { readdirSync, readFileSync } from 'node:fs';

/** /proc readings of a benchmark's server process and its children (packages/kit-tests/bench/uploads.ts). */
/** The server and its child processes (the kit's cleaning pool): their pids now. */
export function processTree(pid: number): number[] {
  const children = readdirSync(`/proc/${pid}/task`).flatMap((thread) =>
    readFileSync(`/proc/${pid}/task/${thread}/children`, 'utf8').split(' ').filter(Boolean).map(Number),
  );
  return [pid, ...children];
}

export function memoryKb(pid: number, field: 'VmRSS' | 'VmHWM' | 'RssAnon' | 'RssShmem'): number {
  const match = new RegExp(`${field}:\\s+(\\d+) kB`).exec(readProc(`/proc/${pid}/status`));
  return Number(match?.[1] ?? 0);
}

/**
 * The memory the server's children (the kit's cleaning processes) hold of their own: their anonymous and shared
 * memory, read every 25 ms, each one's highest kept. Their file-backed pages (node's code, libvips') are the server's
 * own pages, mapped from the same files, which VmRSS would count twice.
 */
export function sampleChildren(pid: number) {
  const highest = new Map<number, number>();
  const own = (child: number) => memoryKb(child, 'RssAnon') + memoryKb(child, 'RssShmem');
  const read = () => {
    for (const child of processTree(pid).slice(1)) highest.set(child, Math.max(highest.get(child) ?? 0, own(child)));
  };
  const timer = setInterval(read, 25);
  return {
    nowKb: () =>
      processTree(pid)
        .slice(1)
        .reduce((total, child) => total + own(child), 0),
    stop(): number {
      clearInterval(timer);
      read();
      return [...highest.values()].reduce((total, kb) => total + kb, 0);
    },
  };
}

/**
 * CPU time so far (user + system, all threads), ms, of the server, of its children that ended (the kernel adds them to
 * its cutime and cstime once reaped), and of those running: fields 14 to 17 of /proc/<pid>/stat, in 10 ms ticks.
 */
export function treeCpuMs(pid: number): number {
  const ticks = (each: number, withChildren: boolean) => {
    const fields = readProc(`/proc/${each}/stat`).split(') ')[1]?.split(' ') ?? [];
    const own = Number(fields[11] ?? 0) + Number(fields[12] ?? 0);
    return withChildren ? own + Number(fields[13] ?? 0) + Number(fields[14] ?? 0) : own;
  };
  return processTree(pid).reduce((total, each) => total + ticks(each, each === pid) * 10, 0);
}

function readProc(path: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return '';
  }
}
