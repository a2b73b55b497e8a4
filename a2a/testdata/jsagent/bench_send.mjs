// File-sending memory benchmark for the @a2a-js/sdk 1.3.0 client (docs/BENCHMARKS.md,
// "a2a interop comparison"): sends FILES raw parts totalling MIB MiB in one SendMessage and
// reports the peak memory above idle. Run with --expose-gc so idle is
// measured after a collection:
//
//   node --expose-gc bench_send.mjs BASE_URL [FILES] [MIB]
//
// Idle is taken after the file buffers exist (the Go side likewise holds its
// files before sending). Peak RSS comes from process.resourceUsage().maxRSS;
// heap/external peaks are sampled every millisecond while the send runs (a
// synchronous JSON.stringify can hide a short spike from the sampler, never
// from maxRSS). Prints one JSON line with byte figures.
import { readFileSync } from 'node:fs';
import { SendMessageRequest } from '@a2a-js/sdk';
import { ClientFactory } from '@a2a-js/sdk/client';

const [baseUrl, filesArg = '10', mibArg = '20'] = process.argv.slice(2);
if (!baseUrl) {
  process.stderr.write('usage: node --expose-gc bench_send.mjs BASE_URL [FILES] [MIB]\n');
  process.exit(2);
}
const sdk = JSON.parse(readFileSync(new URL('./node_modules/@a2a-js/sdk/package.json', import.meta.url))).version;
const files = Number(filesArg);
const total = Number(mibArg) * 1024 * 1024;

const client = await new ClientFactory().createFromUrl(baseUrl);
const buffers = [];
for (let i = 0; i < files; i++) {
  const b = Buffer.alloc(Math.floor(total / files));
  for (let j = 0; j < b.length; j++) b[j] = (j * 31 + i) & 0xff;
  buffers.push(b);
}
const req = SendMessageRequest.fromJSON({
  message: { messageId: crypto.randomUUID(), role: 'ROLE_USER', parts: [{ text: 'file' }] },
});
for (let i = 0; i < files; i++) {
  req.message.parts.push({
    content: { $case: 'raw', value: buffers[i] },
    filename: `f${i}.bin`, mediaType: 'application/octet-stream', metadata: undefined,
  });
}

globalThis.gc?.();
await new Promise((r) => setTimeout(r, 50));
globalThis.gc?.();
const idle = process.memoryUsage();
let peakHeap = idle.heapUsed;
let peakExternal = idle.external;
let peakRss = idle.rss;
const sample = () => {
  const m = process.memoryUsage();
  peakHeap = Math.max(peakHeap, m.heapUsed);
  peakExternal = Math.max(peakExternal, m.external);
  peakRss = Math.max(peakRss, m.rss);
};
const timer = setInterval(sample, 1);
const t0 = process.hrtime.bigint();
const result = await client.sendMessage(req);
const secs = Number(process.hrtime.bigint() - t0) / 1e9;
sample();
clearInterval(timer);
const maxRss = process.resourceUsage().maxRSS * 1024;
const state = result?.status?.state;
process.stdout.write(JSON.stringify({
  sdk, files, rawBytes: buffers.reduce((s, b) => s + b.length, 0), seconds: secs, state,
  idleRss: idle.rss,
  peakRssAboveIdle: Math.max(maxRss, peakRss) - idle.rss,
  peakHeapAboveIdle: peakHeap - idle.heapUsed,
  peakExternalAboveIdle: peakExternal - idle.external,
}) + '\n');
