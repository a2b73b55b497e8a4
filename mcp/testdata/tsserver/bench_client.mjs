// The baseline of the "task end → result" benchmark (docs/BENCHMARKS.md,
// "Remote MCP Tool: task end → node result"): the official TypeScript SDK
// v2 client (@modelcontextprotocol/client 2.4.0) with the official Tasks
// requester (@modelcontextprotocol/ext-tasks 0.2.2, the way its README
// says a 2026-07-28 Tasks server is called: rawDispatch + v2RequestFraming
// for tools/call and tasks/*, since the SDK's codecs reject task shapes).
// Usage: node bench_client.mjs URL SECONDS... — calls `slow` once per
// SECONDS value, waits for the settled outcome, and prints one JSON line per
// call: {taskId, latencyMs} where latencyMs = the instant the outcome was in
// hand − the instant the server saw the task end (GET /task?id=).
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { createTaskSessionFromClient } from '@modelcontextprotocol/ext-tasks/client';

const [url, ...durations] = process.argv.slice(2);
const base = url.replace(/\/mcp$/, '');
const nowMs = () => performance.timeOrigin + performance.now();
const clientInfo = { name: 'ts-bench', version: '1.0.0' };
const clientCapabilities = { extensions: { 'io.modelcontextprotocol/tasks': {} } };
let nextID = 0;

// rawDispatch posts one 2026-07-28 request and returns its response (JSON
// or the response event of an SSE reply).
async function rawDispatch(request, options = {}) {
  const body = { jsonrpc: '2.0', id: 'raw-' + (++nextID), ...request };
  const headers = {
    'content-type': 'application/json', accept: 'application/json, text/event-stream',
    'mcp-protocol-version': '2026-07-28', 'mcp-method': request.method,
  };
  const name = request.method === 'tools/call' ? request.params?.name : request.params?.taskId;
  if (name !== undefined) headers['mcp-name'] = name;
  const res = await fetch(url, { method: 'POST', headers, body: JSON.stringify(body), signal: options.signal });
  const text = await res.text();
  let msg;
  if ((res.headers.get('content-type') ?? '').startsWith('text/event-stream')) {
    for (const line of text.split('\n')) {
      if (!line.startsWith('data:')) continue;
      const m = JSON.parse(line.slice(5));
      if (m.id === body.id) msg = m;
    }
  } else {
    msg = JSON.parse(text);
  }
  if (msg === undefined) throw new Error(`${request.method}: no response (HTTP ${res.status})`);
  return msg.error ? { kind: 'error', error: msg.error } : { kind: 'result', result: msg.result };
}

const client = new Client(clientInfo, { capabilities: clientCapabilities, versionNegotiation: { mode: { pin: '2026-07-28' } } });
await client.connect(new StreamableHTTPClientTransport(new URL(url)));
const session = createTaskSessionFromClient(client, {
  endpointId: 'ts-bench',
  rawDispatch,
  v2RequestFraming: { protocolVersion: '2026-07-28', clientInfo, clientCapabilities },
});
try {
  for (const s of durations) {
    const execution = await session.callTool('slow', { seconds: Number(s) }, { task: { preference: 'prefer' } });
    const { outcome } = await execution.settle();
    const done = nowMs();
    if (execution.kind !== 'task' || outcome.status !== 'completed') throw new Error(`slow ${s}: ${execution.kind} ${outcome.status}`);
    const ended = await (await fetch(base + '/task?id=' + encodeURIComponent(execution.handle.taskId))).json();
    console.log(JSON.stringify({ taskId: execution.handle.taskId, latencyMs: done - ended.endedAtMs }));
  }
} finally {
  await session.close();
  await client.close();
}
