// The interop peer (docs/demo-mcp.md "Interop peer"): MCP servers on the
// TypeScript SDK v2 (@modelcontextprotocol/server 2.4.0, createMcpHandler).
// MODE=modern serves 2026-07-28 only (legacy: 'reject'); MODE=dual also
// answers 2025-era requests (legacy: 'stateless'). The SDK has no task
// store, so the Tasks extension (io.modelcontextprotocol/tasks) is written
// here on its hooks: tools/call answers resultType "task" when the request
// declares the extension, tasks/get|update|cancel are custom handlers over
// one Map shared by every per-request server instance. Task status
// notifications (notifications/tasks on subscriptions/listen with
// notifications.taskIds) are served here beside the SDK: its listen router
// carries only list-changed and resource events (its SubscriptionFilter
// drops taskIds). LISTEN=off leaves subscriptions/listen to the SDK, whose
// acknowledgement then names no task — a client must poll. Prints its URL;
// GET /stats answers the counters, GET /task?id=ID the task's status and
// the instant it ended (endedAtMs, Unix ms with fractions).
import http from 'node:http';
import { createMcpHandler, McpServer } from '@modelcontextprotocol/server';
import * as z from 'zod';

const EXT = 'io.modelcontextprotocol/tasks';
const mode = process.env.MODE === 'dual' ? 'dual' : 'modern';
const stats = { toolsCall: 0, tasksCancel: 0, tasksGet: 0, tasksUpdate: 0, listens: 0, notifications: 0 };
const listenOff = process.env.LISTEN === 'off';
// watchers: task id → the open listen streams that asked for it.
const watchers = new Map();
const nowMs = () => performance.timeOrigin + performance.now();
const tasks = new Map();
let next = 0;

const tools = {
  echo: { task: false, run: async (a) => ({ content: [{ type: 'text', text: 'echo: ' + (a.text ?? '') }] }) },
  slow: { task: true, run: async (a, signal) => { await sleep((a.seconds ?? 1) * 1000, signal); return { content: [{ type: 'text', text: 'slow done after ' + (a.seconds ?? 1) + 's' }] }; } },
  fail: { task: true, run: async () => { throw Object.assign(new Error('failed on purpose'), { code: -32603 }); } },
  hang: { task: true, run: async (_a, signal) => { await sleep(1e9, signal); return { content: [] }; } },
};

function sleep(ms, signal) {
  return new Promise((resolve, reject) => {
    const t = setTimeout(resolve, ms);
    signal?.addEventListener('abort', () => { clearTimeout(t); reject(new Error('cancelled')); });
  });
}

// The request's declared capabilities: the SDK reads the per-request
// envelope into the per-request instance.
function declares(low, meta) {
  const caps = low.getClientCapabilities() ?? meta?.['io.modelcontextprotocol/clientCapabilities'];
  return Boolean(caps?.extensions?.[EXT]);
}

function view(t, detailed) {
  const v = { taskId: t.id, status: t.status, createdAt: t.createdAt, lastUpdatedAt: t.lastUpdatedAt, ttlMs: 3600000, pollIntervalMs: Number(process.env.POLL_MS ?? 1000) };
  if (detailed && t.status === 'completed') v.result = { resultType: 'complete', ...t.result };
  if (detailed && t.status === 'failed') v.error = t.error;
  return v;
}

const terminal = (s) => ['completed', 'failed', 'cancelled'].includes(s);

function touch(t, status, fields) {
  if (terminal(t.status)) return;
  Object.assign(t, fields, { status, lastUpdatedAt: new Date().toISOString() });
  if (terminal(status)) t.endedAtMs = nowMs();
  for (const send of watchers.get(t.id) ?? []) send(t);
}

function missingCap() {
  return Object.assign(new Error('Missing required client capability'), { code: -32021, data: { requiredCapabilities: { extensions: { [EXT]: {} } } } });
}

function factory() {
  const server = new McpServer({ name: 'workrun-ts-peer-' + mode, version: '1.0.0' }, { capabilities: { tools: {}, extensions: { [EXT]: {} } } });
  const low = server.server;
  low.setRequestHandler('tools/list', async () => ({
    tools: Object.keys(tools).map((name) => ({ name, inputSchema: { type: 'object' } })),
  }));
  low.setRequestHandler('tools/call', async (req) => {
    stats.toolsCall++;
    const { name, arguments: args = {}, _meta } = req.params;
    const tool = tools[name];
    if (!tool) throw Object.assign(new Error('unknown tool ' + name), { code: -32602 });
    if (!tool.task || !declares(low, _meta)) {
      try { return await tool.run(args); } catch (e) { return { content: [{ type: 'text', text: e.message }], isError: true }; }
    }
    const now = new Date().toISOString();
    const t = { id: 'ts-task-' + (++next), status: 'working', createdAt: now, lastUpdatedAt: now, abort: new AbortController() };
    tasks.set(t.id, t);
    tool.run(args, t.abort.signal).then(
      (result) => touch(t, 'completed', { result }),
      (e) => t.abort.signal.aborted ? touch(t, 'cancelled', {}) : touch(t, 'failed', { error: { code: e.code ?? -32603, message: e.message } }),
    );
    return { resultType: 'task', ...view(t, false) };
  });
  const taskParams = { params: z.looseObject({ taskId: z.string(), inputResponses: z.any().optional(), _meta: z.any().optional() }) };
  const find = (p) => {
    if (!declares(low, p._meta)) throw missingCap();
    const t = tasks.get(p.taskId);
    if (!t) throw Object.assign(new Error('task not found'), { code: -32602 });
    return t;
  };
  low.setRequestHandler('tasks/get', taskParams, async (p) => { stats.tasksGet++; return { resultType: 'complete', ...view(find(p), true) }; });
  low.setRequestHandler('tasks/update', taskParams, async (p) => { stats.tasksUpdate++; find(p); return { resultType: 'complete' }; });
  low.setRequestHandler('tasks/cancel', taskParams, async (p) => {
    stats.tasksCancel++;
    const t = find(p);
    touch(t, 'cancelled', {});
    t.abort.abort();
    return { resultType: 'complete' };
  });
  return server;
}

const handler = createMcpHandler(factory, { legacy: mode === 'dual' ? 'stateless' : 'reject' });

// listen serves subscriptions/listen for task ids: the acknowledgement
// names the known tasks asked for, then each one's current state (so an end
// between creation and subscription is not missed), then one
// notifications/tasks per change, the terminal one with the result inlined.
function listen(req, res, msg) {
  const meta = msg.params?._meta;
  if (meta?.['io.modelcontextprotocol/protocolVersion'] !== '2026-07-28') {
    res.writeHead(400, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ jsonrpc: '2.0', id: msg.id, error: { code: -32022, message: 'Unsupported protocol version', data: { supported: ['2026-07-28'] } } }));
    return;
  }
  if (!meta?.['io.modelcontextprotocol/clientCapabilities']?.extensions?.[EXT]) {
    const e = missingCap();
    res.writeHead(400, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ jsonrpc: '2.0', id: msg.id, error: { code: e.code, message: e.message, data: e.data } }));
    return;
  }
  stats.listens++;
  const sub = { 'io.modelcontextprotocol/subscriptionId': msg.id };
  const ids = [...new Set(msg.params.notifications.taskIds)].filter((id) => tasks.has(id));
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  const write = (m) => res.write('event: message\ndata: ' + JSON.stringify({ jsonrpc: '2.0', ...m }) + '\n\n');
  write({ method: 'notifications/subscriptions/acknowledged', params: { notifications: ids.length ? { taskIds: ids } : {}, _meta: sub } });
  const send = (t) => { stats.notifications++; write({ method: 'notifications/tasks', params: { ...view(t, true), _meta: sub } }); };
  for (const id of ids) {
    if (!watchers.has(id)) watchers.set(id, new Set());
    watchers.get(id).add(send);
    send(tasks.get(id));
  }
  req.on('close', () => { for (const id of ids) watchers.get(id)?.delete(send); });
}

const srv = http.createServer(async (req, res) => {
  if (req.url === '/stats') {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify(stats));
    return;
  }
  if (req.url.startsWith('/task?')) {
    const t = tasks.get(new URL(req.url, 'http://x').searchParams.get('id'));
    res.writeHead(t ? 200 : 404, { 'content-type': 'application/json' });
    res.end(JSON.stringify(t ? { status: t.status, endedAtMs: t.endedAtMs ?? 0 } : {}));
    return;
  }
  const chunks = [];
  for await (const c of req) chunks.push(c);
  if (req.method === 'POST' && !listenOff) {
    let msg;
    try { msg = JSON.parse(Buffer.concat(chunks)); } catch { msg = undefined; }
    if (msg?.method === 'subscriptions/listen' && Array.isArray(msg.params?.notifications?.taskIds)) {
      listen(req, res, msg);
      return;
    }
  }
  const request = new Request('http://' + req.headers.host + req.url, {
    method: req.method, headers: req.headers, body: ['GET', 'HEAD'].includes(req.method) ? undefined : Buffer.concat(chunks),
  });
  const out = await handler.fetch(request);
  res.writeHead(out.status, Object.fromEntries(out.headers));
  if (!out.body) { res.end(); return; }
  const reader = out.body.getReader();
  req.on('close', () => reader.cancel().catch(() => {}));
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    res.write(value);
  }
  res.end();
});
srv.listen(Number(process.env.PORT ?? 0), '127.0.0.1', () => {
  console.log('http://127.0.0.1:' + srv.address().port + '/mcp');
});
