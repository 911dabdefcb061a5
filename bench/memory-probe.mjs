// Loaded into the server under measure with `node --import ./memory-probe.mjs` by memory.mjs:
// answers the message 'memory' on the IPC channel with where the process's memory goes. It adds
// no timer and no module beyond node:fs and node:v8, so it barely moves the figures it reports.
import fs from 'node:fs';
import v8 from 'node:v8';

function statusFields() {
  const status = fs.readFileSync('/proc/self/status', 'utf8');
  const field = (name) => Number(new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? 0) * 1024;
  return { rss: field('VmRSS'), hwm: field('VmHWM'), rssAnon: field('RssAnon'), rssFile: field('RssFile'), threads: Number(/^Threads:\s+(\d+)/m.exec(status)?.[1] ?? 0) };
}

if (process.send) {
  process.on('message', (message) => {
    if (message !== 'memory') return;
    const usage = process.memoryUsage();
    const heap = v8.getHeapStatistics();
    const spaces = Object.fromEntries(v8.getHeapSpaceStatistics().filter((space) => space.space_size > 0).map((space) => [space.space_name, { size: space.space_size, used: space.space_used_size }]));
    process.send({ memory: { ...statusFields(), heapTotal: usage.heapTotal, heapUsed: usage.heapUsed, external: usage.external, arrayBuffers: usage.arrayBuffers, v8Malloced: heap.malloced_memory, spaces } });
  });
  // The channel must not keep a server that is told to stop alive.
  process.channel?.unref();
}
