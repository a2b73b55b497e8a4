// The TypeScript SDK v2 client against a real `workrun serve` (docs/serve.md
// M9, TestServeMCPClients): @modelcontextprotocol/client 2.4.0 with the
// official Tasks requester @modelcontextprotocol/ext-tasks 0.2.2, the way
// its README calls a tool on either revision (2025-11-25: the minimal form,
// core Tasks; 2026-07-28: rawDispatch + v2RequestFraming, the Tasks
// extension). Questions are answered through the session's onInputRequest
// (2025-11-25: elicitation/create on the stream; 2026-07-28: the task's
// input_required answered by tasks/update).
//
// Usage: node client.mjs REVISION URL STEP ARGS…, one JSON line per event
// on stdout:
//   complete TOOL JSON   call as a task, settle: {kind, taskId, status, text, progress}
//   review TOOL JSON     as complete, answering the question {approved: true}: + asked
//   cancel TOOL JSON     call as a task, print {taskId}, wait for a line on stdin,
//                        cancel, settle: {status}
//   start TOOL JSON      call as a task, print {taskId}, exit without closing (the task runs on)
//   get TASKID           tasks/get, then wait for its outcome: {status, text}
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { createTaskSessionFromClient } from '@modelcontextprotocol/ext-tasks/client';
import readline from 'node:readline';

const [revision, url, step, ...rest] = process.argv.slice(2);
const EXT = 'io.modelcontextprotocol/tasks';
const clientInfo = { name: 'workrun-serve-tsclient', version: '1.0.0' };
const out = (v) => console.log(JSON.stringify(v));
const asked = [];
let nextID = 0;

// The question's answer: a review's form {approved, comment}.
async function onInputRequest(request) {
  if (request.kind !== 'elicitation') throw new Error('unexpected input request ' + request.kind);
  asked.push(request.params.message);
  return { action: 'accept', content: { approved: true, comment: 'fine by the TS client' } };
}

let client, session;
if (revision === '2026-07-28') {
  const clientCapabilities = { elicitation: { form: {} }, extensions: { [EXT]: {} } };
  // rawDispatch posts one 2026-07-28 request and returns its response (JSON
  // or the response event of an SSE reply), as ext-tasks asks of a caller.
  const rawDispatch = async (request, options = {}) => {
    const body = { jsonrpc: '2.0', id: 'raw-' + (++nextID), ...request };
    const headers = {
      'content-type': 'application/json', accept: 'application/json, text/event-stream',
      'mcp-protocol-version': revision, 'mcp-method': request.method,
    };
    const name = request.method === 'tools/call' ? request.params?.name : request.params?.taskId;
    if (name !== undefined) headers['mcp-name'] = name;
    const res = await fetch(url, { method: 'POST', headers, body: JSON.stringify(body), signal: options.signal });
    const text = await res.text();
    let msg;
    if ((res.headers.get('content-type') ?? '').startsWith('text/event-stream')) {
      for (const line of text.split('\n')) {
        if (!line.startsWith('data:') || line.length <= 6) continue;
        const m = JSON.parse(line.slice(5));
        if (m.id === body.id) msg = m;
      }
    } else {
      msg = JSON.parse(text);
    }
    if (msg === undefined) throw new Error(`${request.method}: no response (HTTP ${res.status})`);
    return msg.error ? { kind: 'error', error: msg.error } : { kind: 'result', result: msg.result };
  };
  client = new Client(clientInfo, { capabilities: clientCapabilities, versionNegotiation: { mode: { pin: revision } } });
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  session = createTaskSessionFromClient(client, {
    endpointId: 'workrun-serve', rawDispatch, onInputRequest,
    v2RequestFraming: { protocolVersion: revision, clientInfo, clientCapabilities },
  });
} else {
  client = new Client(clientInfo, { capabilities: { elicitation: { form: {} }, tasks: { requests: { elicitation: { create: {} } } } } });
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  session = createTaskSessionFromClient(client, { endpointId: 'workrun-serve', onInputRequest });
}

const textOf = (result) => (result?.content ?? []).filter((c) => c.type === 'text').map((c) => c.text).join('');

async function settle(execution) {
  const { outcome } = await execution.settle();
  return { status: outcome.status, text: outcome.status === 'completed' ? textOf(outcome.result) : undefined, isError: outcome.result?.isError };
}

const stdinLine = () => new Promise((resolve) => {
  const rl = readline.createInterface({ input: process.stdin });
  rl.once('line', (l) => { rl.close(); resolve(l); });
});

try {
  switch (step) {
    case 'complete':
    case 'review': {
      const [tool, args] = rest;
      const execution = await session.callTool(tool, JSON.parse(args), { task: { preference: 'require' } });
      out({ kind: execution.kind, taskId: execution.handle?.taskId, ...(await settle(execution)), asked });
      break;
    }
    case 'cancel': {
      const [tool, args] = rest;
      const execution = await session.callTool(tool, JSON.parse(args), { task: { preference: 'require' } });
      out({ kind: execution.kind, taskId: execution.handle?.taskId });
      await stdinLine();
      await execution.cancel();
      out(await settle(execution));
      break;
    }
    case 'start': {
      const [tool, args] = rest;
      const execution = await session.callTool(tool, JSON.parse(args), { task: { preference: 'require' } });
      out({ kind: execution.kind, taskId: execution.handle?.taskId });
      // Leave without closing: ext-tasks' session.close() cancels the
      // tasks it still holds on 2026-07-28, even a detached one.
      process.exit(0);
    }
    case 'get': {
      const [taskId] = rest;
      const task = session.task(taskId);
      const view = await task.snapshot();
      out({ snapshot: view.status });
      const outcome = await task.result();
      out({ status: outcome.status, text: outcome.status === 'completed' ? textOf(outcome.result) : undefined });
      break;
    }
    default:
      throw new Error('unknown step ' + step);
  }
} finally {
  await session.close();
  await client.close();
}
