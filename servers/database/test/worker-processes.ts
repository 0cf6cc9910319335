import { readdirSync, readFileSync } from 'node:fs';

/** The SQLite worker processes of this process, found in /proc (their parent is us, their script sqlite-process.js). */
export function workerProcesses(): number[] {
  return readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .filter((pid) => {
      try {
        const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
        const parent = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
        return parent === process.pid && readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('sqlite-process.js');
      } catch {
        return false;
      }
    })
    .map(Number);
}

/** CPU time (user + system) a process has used, in clock ticks; undefined once it is gone or a zombie. */
export function cpuTicks(pid: number): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    if (fields[0] === 'Z') return undefined;
    return Number(fields[11]) + Number(fields[12]);
  } catch {
    return undefined;
  }
}

/** A field of /proc/<pid>/status in MiB (VmRSS, VmHWM), or 0 when the process is gone. */
export function processMegabytes(pid: number, field: 'VmRSS' | 'VmHWM'): number {
  try {
    const match = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(readFileSync(`/proc/${pid}/status`, 'latin1'));
    return Number(match?.[1] ?? 0) / 1024;
  } catch {
    return 0;
  }
}

/** Samples the peak memory (VmHWM) of every worker process until stopped; returns the highest seen, in MiB. */
export function watchWorkerPeak(intervalMs = 10): { stop(): number } {
  let peak = 0;
  const sample = () => {
    for (const pid of workerProcesses()) peak = Math.max(peak, processMegabytes(pid, 'VmHWM'));
  };
  const timer = setInterval(sample, intervalMs);
  return {
    stop: () => {
      clearInterval(timer);
      sample();
      return peak;
    },
  };
}
