/**
 * What the OCPP bench reads about the workerd processes of one server from /proc: their CPU time,
 * the files the busiest of them holds open, and the port of the one that runs the worker
 * (docs/performance.md "Open files, and wrangler's proxy").
 */
import { execFileSync } from "node:child_process";
import { readdirSync, readFileSync, readlinkSync } from "node:fs";

const CLOCK_TICKS = Number(execFileSync("getconf", ["CLK_TCK"], { encoding: "utf8" }).trim()) || 100;

/** The workerd processes of one process group, with their `/proc/<pid>/stat` fields after the name. */
function workerdsOf(group: number): { pid: string; fields: string[] }[] {
  const found: { pid: string; fields: string[] }[] = [];
  for (const pid of readdirSync("/proc").filter((name) => /^\d+$/.test(name))) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
      const comm = stat.slice(stat.indexOf("(") + 1, stat.lastIndexOf(")"));
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      // fields[2] is the process group (proc(5)).
      if (comm.startsWith("workerd") && Number(fields[2]) === group) found.push({ pid, fields });
    } catch {
      // gone meanwhile
    }
  }
  return found;
}

/** CPU seconds (user + system: fields[11] and fields[12]) used so far by one group's workerd processes. */
export const workerdCpuSeconds = (group: number) => workerdsOf(group).reduce((ticks, w) => ticks + Number(w.fields[11]) + Number(w.fields[12]), 0) / CLOCK_TICKS;

function linksOf(pid: string): string[] {
  const links: string[] = [];
  try {
    for (const fd of readdirSync(`/proc/${pid}/fd`)) {
      try {
        links.push(readlinkSync(`/proc/${pid}/fd/${fd}`));
      } catch {
        // closed meanwhile
      }
    }
  } catch {
    // gone meanwhile
  }
  return links;
}

export interface OpenFiles {
  /** Everything open: sockets, and each awake Durable Object's SQLite files. */
  files: number;
  sockets: number;
}

/** The files of the group's workerd process that holds the most (the open-file limit is per process). */
export function workerdOpenFiles(group: number): OpenFiles {
  let busiest: OpenFiles = { files: 0, sockets: 0 };
  for (const { pid } of workerdsOf(group)) {
    const links = linksOf(pid);
    if (links.length > busiest.files) busiest = { files: links.length, sockets: links.filter((l) => l.startsWith("socket:")).length };
  }
  return busiest;
}

/** Ports some workerd of the group listens on, from the kernel's socket table. */
function listeningPorts(group: number): number[] {
  const inodes = new Set<string>();
  for (const { pid } of workerdsOf(group)) {
    for (const link of linksOf(pid)) if (link.startsWith("socket:[")) inodes.add(link.slice(8, -1));
  }
  const ports: number[] = [];
  for (const table of ["/proc/net/tcp", "/proc/net/tcp6"]) {
    let lines: string[];
    try {
      lines = readFileSync(table, "utf8").trim().split("\n").slice(1);
    } catch {
      continue;
    }
    for (const line of lines) {
      const f = line.trim().split(/\s+/);
      // f[1] is the local address as HEX:PORT, f[3] the state (0A: listening), f[9] the inode.
      if (f[3] === "0A" && inodes.has(f[9])) ports.push(Number.parseInt(f[1].split(":")[1], 16));
    }
  }
  return ports;
}

/**
 * `wrangler dev` serves through a proxy workerd that holds two sockets and four pipes for every
 * WebSocket it forwards, a hop no deployment has. The origin of the workerd behind it that runs
 * the worker: the listening port, other than the public one, where `probe` passes.
 */
export async function workerOrigin(group: number, publicOrigin: string, path: string, probe: (res: Response) => Promise<boolean>): Promise<string> {
  const publicPort = Number(new URL(publicOrigin).port);
  for (const port of listeningPorts(group).filter((p) => p !== publicPort)) {
    const origin = `http://127.0.0.1:${port}`;
    try {
      if (await probe(await fetch(`${origin}${path}`, { signal: AbortSignal.timeout(3000) }))) return origin;
    } catch {
      // not this one
    }
  }
  throw new Error(`no workerd of process group ${group} behind ${publicOrigin} answers ${path}`);
}
