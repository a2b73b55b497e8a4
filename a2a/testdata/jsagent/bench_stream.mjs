// Stream-decoding benchmark for the @a2a-js/sdk 1.3.0 client (docs/BENCHMARKS.md,
// "a2a interop comparison"). Run by a2a/bench_interop_test.go against the same server the Go
// client reads, so the two figures are side by side in one run:
//
//   node bench_stream.mjs BASE_URL [RUNS] [TEXT]
//
// Each run opens SendStreamingMessage with TEXT (default "slow 10000 0") and
// counts the events the SDK client yields; CPU time is process.cpuUsage()
// over the same span. Prints one JSON line (medians over the runs):
//   {"sdk":"1.3.0","events":N,"runs":[events/s…],"eventsPerSec":…,"cpuMicrosPerEvent":…}
import { readFileSync } from 'node:fs';
import { SendMessageRequest } from '@a2a-js/sdk';
import { ClientFactory } from '@a2a-js/sdk/client';

const [baseUrl, runsArg = '3', text = 'slow 10000 0'] = process.argv.slice(2);
if (!baseUrl) {
  process.stderr.write('usage: node bench_stream.mjs BASE_URL [RUNS] [TEXT]\n');
  process.exit(2);
}
const sdk = JSON.parse(readFileSync(new URL('./node_modules/@a2a-js/sdk/package.json', import.meta.url))).version;

const client = await new ClientFactory().createFromUrl(baseUrl);
const rates = [];
const cpus = [];
let events = 0;
for (let r = 0; r < Number(runsArg); r++) {
  const req = SendMessageRequest.fromJSON({
    message: { messageId: crypto.randomUUID(), role: 'ROLE_USER', parts: [{ text }] },
  });
  let n = 0;
  const c0 = process.cpuUsage();
  const t0 = process.hrtime.bigint();
  for await (const ev of client.sendMessageStream(req)) {
    if (ev) n++;
  }
  const secs = Number(process.hrtime.bigint() - t0) / 1e9;
  const c = process.cpuUsage(c0);
  events = n;
  rates.push(n / secs);
  cpus.push((c.user + c.system) / n);
}
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
process.stdout.write(JSON.stringify({
  sdk, events, runs: rates.map(Math.round), eventsPerSec: Math.round(median(rates)),
  cpuMicrosPerEvent: Number(median(cpus).toFixed(2)),
}) + '\n');
