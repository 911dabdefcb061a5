// Loaded into the server under measure with `node --import ./memory-probe.mjs` by memory.mjs:
// on SIGUSR2, writes where the process's memory goes, as JSON, to the file named by
// BURROW_MEMORY_PROBE_FILE. A signal, not an IPC channel: the server restarts itself in place at
// start (one malloc arena), which it does only when no parent holds a channel to it. It adds
// no timer and no module beyond node:fs and node:v8, so it barely moves the figures it reports.
import fs from 'node:fs';
import v8 from 'node:v8';

function statusFields() {
  const status = fs.readFileSync('/proc/self/status', 'utf8');
  const field = (name) => Number(new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? 0) * 1024;
  return { rss: field('VmRSS'), hwm: field('VmHWM'), rssAnon: field('RssAnon'), rssFile: field('RssFile'), threads: Number(/^Threads:\s+(\d+)/m.exec(status)?.[1] ?? 0) };
}

const target = process.env.BURROW_MEMORY_PROBE_FILE;
if (target) {
  // A signal listener does not keep the process alive.
  process.on('SIGUSR2', () => {
    const usage = process.memoryUsage();
    const heap = v8.getHeapStatistics();
    const spaces = Object.fromEntries(v8.getHeapSpaceStatistics().filter((space) => space.space_size > 0).map((space) => [space.space_name, { size: space.space_size, used: space.space_used_size }]));
    const memory = { ...statusFields(), heapTotal: usage.heapTotal, heapUsed: usage.heapUsed, external: usage.external, arrayBuffers: usage.arrayBuffers, v8Malloced: heap.malloced_memory, spaces };
    // Written whole under another name, then renamed, so a reader never sees half of it.
    fs.writeFileSync(`${target}.part`, JSON.stringify(memory));
    fs.renameSync(`${target}.part`, target);
  });
}
