// Test-only A2A 1.0 JSON-RPC server on @a2a-js/sdk 1.3.0 + express 5, with the
// same behaviours as workrun's Go demo agent (a2a/demoagent; see its doc.go).
// Workrun's interop suite (a2a/interop_test.go) starts it; it is not shipped.
//
//   node server.mjs [--bearer TOKEN] [--api-key KEY] [--api-key-header NAME]
//                   [--no-streaming] [--uncancelable-ms MS] [--slow-ms MS]
//                   [--watch-stdin] [--push]
//
// --push declares capabilities.pushNotifications: the SDK's own push store
// and sender (DefaultPushNotificationSender) POST each update of a task
// whose send carried a taskPushNotificationConfig. The command "held" keeps
// a task WORKING until POST /_release/TASK_ID; /_stats lists the held tasks,
// the pushes sent and failed, the tokens pushes carried (so a test can
// look for them where they must not be), and openConnections: the HTTP connections
// open to this server other than the one asking.
//
// It listens on 127.0.0.1:0 and prints one line to stdout when ready:
//   listening http://127.0.0.1:PORT @a2a-js/sdk 1.3.0
// GET /_stats returns the request counters as JSON (test-only).

import { readFileSync } from 'node:fs';
import express from 'express';
import {
  AgentCard,
  Message,
  Task,
  TaskArtifactUpdateEvent,
  TaskStatusUpdateEvent,
} from '@a2a-js/sdk';
import {
  AgentEvent,
  DefaultPushNotificationSender,
  DefaultRequestHandler,
  InMemoryPushNotificationStore,
  InMemoryTaskStore,
} from '@a2a-js/sdk/server';
import { UserBuilder, agentCardHandler, jsonRpcHandler } from '@a2a-js/sdk/server/express';
import { TaskNotCancelableError } from '@a2a-js/sdk/errors';

const SDK_VERSION = JSON.parse(readFileSync(new URL('./node_modules/@a2a-js/sdk/package.json', import.meta.url))).version;

// Texts shared with the Go demo agent (a2a/demoagent/executor.go).
const FAIL_TEXT = 'demo agent: failed as asked';
const INPUT_TEXT = 'demo agent: more input required; reply on this task';
const AUTH_TEXT = 'demo agent: authorization required (out of band)';
const REJECT_TEXT = 'demo agent: rejected as asked';
const CANCEL_TEXT = 'demo agent: canceled';
const UNFINISHED_TEXT = 'demo agent: stopped while still working';
const HELP_TEXT = 'commands: echo TEXT | slow N [MS] | file | hang | uncancelable | unfinished | fail | input | auth | reject | message';
const DEMO_FILE = { name: 'demo.txt', mediaType: 'text/plain', content: Buffer.from('hello from the workrun demo agent\n') };
const JSONRPC_PATH = '/a2a';
const MAX_SLOW_STEPS = 100000;

function parseArgs(argv) {
  const opts = { bearer: '', apiKey: '', apiKeyHeader: 'X-API-Key', streaming: true, uncancelableMs: 3000, slowMs: 100, watchStdin: false, push: false };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const next = () => {
      if (i + 1 >= argv.length) throw new Error(`${a} needs a value`);
      return argv[++i];
    };
    switch (a) {
      case '--bearer': opts.bearer = next(); break;
      case '--api-key': opts.apiKey = next(); break;
      case '--api-key-header': opts.apiKeyHeader = next(); break;
      case '--no-streaming': opts.streaming = false; break;
      case '--uncancelable-ms': opts.uncancelableMs = Number(next()); break;
      case '--slow-ms': opts.slowMs = Number(next()); break;
      case '--watch-stdin': opts.watchStdin = true; break;
      case '--push': opts.push = true; break;
      default: throw new Error(`unknown argument ${a}`);
    }
  }
  return opts;
}

const opts = parseArgs(process.argv.slice(2));

const stats = { methods: {}, submissions: {}, cancels: {}, unauthorized: 0, pushesSent: 0, pushesFailed: 0, pushTokens: [], held: [] };
// Tasks of the "held" command waiting for POST /_release/TASK_ID.
const held = new Map(); // taskId -> resolve
const bump = (m, k) => { m[k] = (m[k] ?? 0) + 1; };

function cardJSON(baseUrl) {
  const card = {
    name: 'Workrun demo agent (a2a-js)',
    description: 'Test twin of the Workrun demo agent on @a2a-js/sdk.',
    version: '1.0.0',
    supportedInterfaces: [{ url: baseUrl + JSONRPC_PATH, protocolBinding: 'JSONRPC', protocolVersion: '1.0' }],
    provider: { organization: 'Workrun', url: 'https://example.invalid/workrun' },
    capabilities: { streaming: opts.streaming, pushNotifications: opts.push },
    defaultInputModes: ['text/plain', 'application/octet-stream'],
    defaultOutputModes: ['text/plain', 'application/octet-stream'],
    skills: [{
      id: 'demo', name: 'Demo behaviours',
      description: 'echo, slow N, file, hang, held, uncancelable, unfinished, fail, input, auth, reject, message',
      tags: ['demo', 'test'], examples: ['echo hello', 'slow 3', 'file', 'hang'],
    }],
  };
  if (opts.bearer || opts.apiKey) {
    card.securitySchemes = {};
    card.securityRequirements = [];
  }
  if (opts.bearer) {
    card.securitySchemes.bearer = { httpAuthSecurityScheme: { scheme: 'Bearer' } };
    card.securityRequirements.push({ schemes: { bearer: { list: [] } } });
  }
  if (opts.apiKey) {
    card.securitySchemes.apiKey = { apiKeySecurityScheme: { location: 'header', name: opts.apiKeyHeader } };
    card.securityRequirements.push({ schemes: { apiKey: { list: [] } } });
  }
  return card;
}

// --- agent behaviour ---------------------------------------------------------

const now = () => new Date().toISOString();

function firstText(message) {
  for (const p of message?.parts ?? []) {
    if (p.content?.$case === 'text') return p.content.value;
  }
  return '';
}

function agentMessage(ctx, text) {
  return { messageId: crypto.randomUUID(), role: 'ROLE_AGENT', taskId: ctx.taskId, contextId: ctx.contextId, parts: [{ text }] };
}

function status(ctx, state, text) {
  const s = { state, timestamp: now() };
  if (text !== undefined) s.message = agentMessage(ctx, text);
  return AgentEvent.statusUpdate(TaskStatusUpdateEvent.fromJSON({ taskId: ctx.taskId, contextId: ctx.contextId, status: s }));
}

function artifact(ctx, name, parts) {
  const ev = TaskArtifactUpdateEvent.fromJSON({
    taskId: ctx.taskId, contextId: ctx.contextId, lastChunk: true,
    artifact: { artifactId: crypto.randomUUID(), name, parts: [] },
  });
  ev.artifact.parts = parts; // internal (already decoded) parts
  return AgentEvent.artifactUpdate(ev);
}

const textPart = (text) => ({ content: { $case: 'text', value: text }, filename: '', mediaType: '', metadata: undefined });

function fileReport(message) {
  const lines = [];
  for (const p of message?.parts ?? []) {
    const c = p.content;
    if (c?.$case !== 'raw' && c?.$case !== 'url') continue;
    const size = c.$case === 'raw' ? String(c.value.length) : 'url';
    lines.push(`${p.filename || '-'} ${size} ${p.mediaType || '-'}`);
  }
  return [`files: ${lines.length}`, ...lines].join('\n');
}

function slowArgs(args) {
  let n = 3;
  let ms = opts.slowMs;
  const v = Number.parseInt(args[0], 10);
  if (Number.isInteger(v) && v >= 0) n = Math.min(v, MAX_SLOW_STEPS);
  const w = Number.parseInt(args[1], 10);
  if (Number.isInteger(w) && w >= 0) ms = w;
  return { n, ms };
}

// Resolves after ms, or early (false) when the signal fires; ms < 0 waits for the signal.
function sleep(ms, signal) {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve(false);
    const t = ms >= 0 ? setTimeout(() => { signal.removeEventListener('abort', onAbort); resolve(true); }, ms) : undefined;
    function onAbort() { clearTimeout(t); resolve(false); }
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

class DemoExecutor {
  runs = new Map(); // taskId -> { command, abort: AbortController }
  contexts = new Map(); // taskId -> contextId

  async execute(requestContext, bus) {
    const ctx = { taskId: requestContext.taskId, contextId: requestContext.contextId };
    const userMessage = requestContext.userMessage;
    const text = firstText(userMessage);
    const words = text.trim().split(/\s+/).filter(Boolean);
    const word = (words[0] ?? '').toLowerCase();
    const args = words.slice(1);

    if (requestContext.task) {
      // A follow-up on an interrupted task: an answer. "input N" asks N
      // times; then the task completes with the answers joined by " | ".
      // The SDK wants the task as the first event of every execution (a
      // snapshot in an interrupted state would end the reply stream).
      const snap = Task.fromJSON({ id: ctx.taskId, contextId: ctx.contextId, status: { state: 'TASK_STATE_WORKING', timestamp: now() } });
      snap.history = requestContext.task.history;
      snap.artifacts = requestContext.task.artifacts;
      bus.publish(AgentEvent.task(snap));
      const users = (requestContext.task.history ?? []).filter((m) => m.role === 1 /* ROLE_USER */ || m.role === 'ROLE_USER');
      const first = users[0];
      const answers = users.slice(1).filter((m) => m.messageId !== userMessage.messageId).map(firstText);
      answers.push(text);
      const asked = first ? firstText(first).trim().split(/\s+/) : [];
      let reply = text;
      if ((asked[0] ?? '').toLowerCase() === 'input' && asked.length > 1) {
        const n = parseInt(asked[1], 10);
        if (answers.length < n) {
          bus.publish(status(ctx, 'TASK_STATE_INPUT_REQUIRED', `${INPUT_TEXT} (question ${answers.length + 1} of ${n})`));
          return;
        }
        reply = answers.join(' | ');
      }
      bus.publish(status(ctx, 'TASK_STATE_WORKING'));
      bus.publish(artifact(ctx, 'echo', [textPart(reply)]));
      bus.publish(status(ctx, 'TASK_STATE_COMPLETED'));
      return;
    }
    if (word === 'message') {
      bus.publish(AgentEvent.message(Message.fromJSON({
        messageId: crypto.randomUUID(), role: 'ROLE_AGENT', contextId: ctx.contextId, parts: [{ text }],
      })));
      return;
    }

    this.contexts.set(ctx.taskId, ctx.contextId);
    const run = { command: word, abort: new AbortController() };
    this.runs.set(ctx.taskId, run);
    try {
      const task = Task.fromJSON({ id: ctx.taskId, contextId: ctx.contextId, status: { state: 'TASK_STATE_SUBMITTED', timestamp: now() } });
      task.history = [userMessage];
      bus.publish(AgentEvent.task(task));
      const signal = run.abort.signal;
      switch (word) {
        case 'echo':
          bus.publish(artifact(ctx, 'echo', [textPart(text)]));
          bus.publish(status(ctx, 'TASK_STATE_COMPLETED'));
          break;
        case 'slow': {
          const { n, ms } = slowArgs(args);
          for (let i = 1; i <= n; i++) {
            if (i > 1 && ms > 0 && !(await sleep(ms, signal))) return;
            bus.publish(status(ctx, 'TASK_STATE_WORKING', `progress ${i}/${n}`));
          }
          bus.publish(artifact(ctx, 'result', [textPart(`done after ${n} steps`)]));
          bus.publish(status(ctx, 'TASK_STATE_COMPLETED'));
          break;
        }
        case 'file':
          bus.publish(status(ctx, 'TASK_STATE_WORKING'));
          bus.publish(artifact(ctx, 'report', [textPart(fileReport(userMessage))]));
          bus.publish(artifact(ctx, DEMO_FILE.name, [{
            content: { $case: 'raw', value: DEMO_FILE.content },
            filename: DEMO_FILE.name, mediaType: DEMO_FILE.mediaType, metadata: undefined,
          }]));
          bus.publish(status(ctx, 'TASK_STATE_COMPLETED'));
          break;
        case 'held': {
          bus.publish(status(ctx, 'TASK_STATE_WORKING', 'held until released'));
          const released = new Promise((resolve) => held.set(ctx.taskId, resolve));
          stats.held.push(ctx.taskId);
          await released;
          bus.publish(artifact(ctx, 'result', [textPart('released')]));
          bus.publish(status(ctx, 'TASK_STATE_COMPLETED'));
          break;
        }
        case 'hang':
          bus.publish(status(ctx, 'TASK_STATE_WORKING', 'hanging until canceled'));
          await sleep(-1, signal); // cancelTask publishes CANCELED, then aborts
          break;
        case 'uncancelable':
          bus.publish(status(ctx, 'TASK_STATE_WORKING', 'working; this task cannot be canceled'));
          if (await sleep(opts.uncancelableMs, signal)) {
            bus.publish(artifact(ctx, 'result', [textPart('uncancelable work done')]));
            bus.publish(status(ctx, 'TASK_STATE_COMPLETED'));
          }
          break;
        case 'unfinished':
          // Return without a final state: a blocking send gets a WORKING task.
          bus.publish(status(ctx, 'TASK_STATE_WORKING', UNFINISHED_TEXT));
          break;
        case 'fail':
          bus.publish(status(ctx, 'TASK_STATE_WORKING'));
          bus.publish(status(ctx, 'TASK_STATE_FAILED', FAIL_TEXT));
          break;
        case 'input':
          bus.publish(status(ctx, 'TASK_STATE_INPUT_REQUIRED', INPUT_TEXT));
          break;
        case 'auth':
          bus.publish(status(ctx, 'TASK_STATE_AUTH_REQUIRED', AUTH_TEXT));
          break;
        case 'reject':
          bus.publish(status(ctx, 'TASK_STATE_REJECTED', REJECT_TEXT));
          break;
        default:
          bus.publish(artifact(ctx, 'help', [textPart(HELP_TEXT)]));
          bus.publish(status(ctx, 'TASK_STATE_COMPLETED'));
      }
    } finally {
      this.runs.delete(ctx.taskId);
    }
  }

  async cancelTask(taskId, bus) {
    const run = this.runs.get(taskId);
    if (run?.command === 'uncancelable') {
      throw new TaskNotCancelableError(`demo agent refuses to cancel task ${taskId}`);
    }
    // The SDK calls us only while the task's event bus is alive (running, or
    // parked in an interrupted state).
    const ctx = { taskId, contextId: this.contexts.get(taskId) ?? '' };
    bus.publish(status(ctx, 'TASK_STATE_CANCELED', CANCEL_TEXT));
    run?.abort.abort();
  }
}

// --- HTTP ---------------------------------------------------------------------

const taskStore = new InMemoryTaskStore();
const internalCard = AgentCard.fromJSON(cardJSON('http://127.0.0.1'));
// The SDK's push sender, counting what it delivered (it logs and drops a
// failed push; it never retries).
class CountingPushSender extends DefaultPushNotificationSender {
  async _dispatchNotification(streamResponse, storedConfig, ...rest) {
    const tok = storedConfig?.config?.token;
    if (tok && !stats.pushTokens.includes(tok)) stats.pushTokens.push(tok);
    try {
      await super._dispatchNotification(streamResponse, storedConfig, ...rest);
      stats.pushesSent++;
    } catch (err) {
      stats.pushesFailed++;
      throw err;
    }
  }
}
const pushStore = opts.push ? new InMemoryPushNotificationStore() : undefined;
const pushSender = opts.push ? new CountingPushSender(pushStore) : undefined;
const requestHandler = new DefaultRequestHandler(internalCard, taskStore, new DemoExecutor(), undefined, pushStore, pushSender);

const app = express();
app.disable('x-powered-by');

const sockets = new Set();
app.get('/_stats', (req, res) => {
  let open = 0;
  for (const s of sockets) if (s !== req.socket && !s.destroyed) open++;
  res.set('Connection', 'close');
  res.json({ ...stats, openConnections: open });
});
app.post('/_release/:task', (req, res) => {
  const resolve = held.get(req.params.task);
  if (!resolve) return res.status(404).type('text/plain').send('no such held task\n');
  held.delete(req.params.task);
  stats.held = stats.held.filter((t) => t !== req.params.task);
  resolve();
  res.set('Connection', 'close');
  res.status(204).end();
});

// The card's interface URL follows the Host the client used. The SDK's card
// handler JSON.stringify()s what the provider returns, so the provider returns
// the wire (ProtoJSON) form, not the SDK's internal one.
let currentHost = '127.0.0.1';
app.use((req, _res, next) => { if (req.headers.host) currentHost = req.headers.host; next(); });
app.use('/.well-known/agent-card.json', agentCardHandler({
  agentCardProvider: async () => cardJSON(`http://${currentHost}`),
  cache: { maxAge: 0 },
}));

function authorized(req) {
  if (!opts.bearer && !opts.apiKey) return true;
  if (opts.bearer) {
    const [scheme, token] = (req.get('authorization') ?? '').split(' ', 2);
    if (scheme?.toLowerCase() === 'bearer' && token === opts.bearer) return true;
  }
  return Boolean(opts.apiKey) && req.get(opts.apiKeyHeader) === opts.apiKey;
}

app.use(JSONRPC_PATH, (req, res, next) => {
  if (authorized(req)) return next();
  stats.unauthorized++;
  res.set('WWW-Authenticate', opts.bearer ? 'Bearer realm="workrun-demo-agent"' : `ApiKey header="${opts.apiKeyHeader}"`);
  res.status(401).type('text/plain').send('unauthorized: missing or wrong credential\n');
});

// Raise the SDK's 100 kB JSON limit for file tests: the SDK's own parser skips
// a body that is already parsed.
app.use(JSONRPC_PATH, express.json({ limit: '64mb' }), (err, _req, res, next) => {
  if (err?.type === 'entity.too.large') {
    res.status(413).type('text/plain').send('request body too large\n');
    return;
  }
  if (err instanceof SyntaxError && 'body' in err) {
    res.status(200).json({ jsonrpc: '2.0', id: null, error: { code: -32700, message: 'Invalid JSON payload.' } });
    return;
  }
  next(err);
});

app.use(JSONRPC_PATH, (req, _res, next) => {
  const body = req.body;
  if (body && typeof body === 'object' && typeof body.method === 'string') {
    bump(stats.methods, body.method);
    if (body.method === 'SendMessage' || body.method === 'SendStreamingMessage') {
      bump(stats.submissions, body.params?.message?.messageId ?? '');
    } else if (body.method === 'CancelTask') {
      bump(stats.cancels, body.params?.id ?? '');
    }
  }
  next();
});

app.use(JSONRPC_PATH, jsonRpcHandler({ requestHandler, userBuilder: UserBuilder.noAuthentication }));

const server = app.listen(0, '127.0.0.1', () => {
  const { port } = server.address();
  process.stdout.write(`listening http://127.0.0.1:${port} @a2a-js/sdk ${SDK_VERSION}\n`);
});
server.on('connection', (socket) => {
  sockets.add(socket);
  socket.on('close', () => sockets.delete(socket));
});
server.on('error', (err) => {
  process.stderr.write(`server error: ${err.message}\n`);
  process.exit(1);
});

// With --watch-stdin the server exits when stdin closes, so a test that dies
// never leaves it behind.
if (opts.watchStdin) {
  process.stdin.on('end', () => process.exit(0));
  process.stdin.resume();
}
process.on('SIGTERM', () => process.exit(0));
