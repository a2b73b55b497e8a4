// The @a2a-js/sdk 1.3.0 baseline of the serve benchmark (docs/BENCHMARKS.md,
// "serve: a workflow as an A2A agent"): the SDK's own JSON-RPC server
// (DefaultRequestHandler, InMemoryTaskStore, express 5) whose executor
// answers a message "NAME" with the artifact "Hello, NAME!" and COMPLETED,
// the same text the served hello workflow returns. Test-only.
//
//   node bench_hello_server.mjs   (prints "listening http://127.0.0.1:PORT/a2a")
import express from 'express';
import { AgentCard, Task, TaskArtifactUpdateEvent, TaskStatusUpdateEvent } from '@a2a-js/sdk';
import { AgentEvent, DefaultRequestHandler, InMemoryTaskStore } from '@a2a-js/sdk/server';
import { UserBuilder, jsonRpcHandler } from '@a2a-js/sdk/server/express';

const now = () => new Date().toISOString();

class HelloExecutor {
  async execute(rc, bus) {
    const ctx = { taskId: rc.taskId, contextId: rc.contextId };
    let name = '';
    for (const p of rc.userMessage?.parts ?? []) {
      if (p.content?.$case === 'text') { name = p.content.value; break; }
    }
    const task = Task.fromJSON({ id: ctx.taskId, contextId: ctx.contextId, status: { state: 'TASK_STATE_SUBMITTED', timestamp: now() } });
    task.history = [rc.userMessage];
    bus.publish(AgentEvent.task(task));
    const art = TaskArtifactUpdateEvent.fromJSON({
      taskId: ctx.taskId, contextId: ctx.contextId, lastChunk: true,
      artifact: { artifactId: crypto.randomUUID(), name: 'message', parts: [] },
    });
    art.artifact.parts = [{ content: { $case: 'text', value: `Hello, ${name}!` }, filename: '', mediaType: '', metadata: undefined }];
    bus.publish(AgentEvent.artifactUpdate(art));
    bus.publish(AgentEvent.statusUpdate(TaskStatusUpdateEvent.fromJSON({
      taskId: ctx.taskId, contextId: ctx.contextId, status: { state: 'TASK_STATE_COMPLETED', timestamp: now() },
    })));
  }

  async cancelTask() {}
}

const card = AgentCard.fromJSON({
  name: 'hello (a2a-js)', description: 'benchmark baseline', version: '1.0.0',
  supportedInterfaces: [{ url: 'http://127.0.0.1/a2a', protocolBinding: 'JSONRPC', protocolVersion: '1.0' }],
  capabilities: { streaming: true }, defaultInputModes: ['text/plain'], defaultOutputModes: ['text/plain'], skills: [],
});
const handler = new DefaultRequestHandler(card, new InMemoryTaskStore(), new HelloExecutor());
const app = express();
app.use('/a2a', jsonRpcHandler({ requestHandler: handler, userBuilder: UserBuilder.noAuthentication }));
const server = app.listen(0, '127.0.0.1', () => {
  process.stdout.write(`listening http://127.0.0.1:${server.address().port}/a2a\n`);
});
process.on('SIGTERM', () => process.exit(0));
if (!process.stdin.isTTY) {
  process.stdin.on('end', () => process.exit(0));
  process.stdin.resume();
}
