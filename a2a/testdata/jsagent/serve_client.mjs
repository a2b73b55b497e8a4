// The official @a2a-js/sdk 1.3.0 client (ClientFactory) against a real
// `workrun serve` process (docs/serve.md; driven by TestServeA2A's
// JSClientFactory in the repository root's main_serve_test.go).
//
//   node serve_client.mjs HELLO_AGENT_URL SLOW_AGENT_URL [REVIEW_AGENT_URL]
//
// HELLO greets the text it is sent; SLOW runs a few seconds (it prints
// "started" first); REVIEW asks a Human Review question, answered on the
// same task with the text "approve". The script discovers both cards, sends (blocking, the
// same messageId again, returnImmediately), gets (historyLength), lists,
// streams, resubscribes and cancels, and prints one JSON object of what it
// saw (wire form) on stdout for the Go test to check. Any SDK error ends it
// with exit status 1 and the error on stderr.
import { readFileSync } from 'node:fs';
import {
  CancelTaskRequest, GetTaskRequest, ListTasksRequest, SendMessageRequest, StreamResponse, SubscribeToTaskRequest, Task,
} from '@a2a-js/sdk';
import { ClientFactory } from '@a2a-js/sdk/client';

const [helloUrl, slowUrl, reviewUrl] = process.argv.slice(2);
if (!helloUrl || !slowUrl) {
  process.stderr.write('usage: node serve_client.mjs HELLO_AGENT_URL SLOW_AGENT_URL\n');
  process.exit(2);
}
const sdk = JSON.parse(readFileSync(new URL('./node_modules/@a2a-js/sdk/package.json', import.meta.url))).version;

// A served agent's card is under its own URL (URL/.well-known/agent-card.json),
// not at the host's root: resolve the card path relative to the agent URL.
const factory = new ClientFactory();
const connect = (url) => factory.createFromUrl(url.replace(/\/*$/, '/'), '.well-known/agent-card.json');

const wireTask = (t) => Task.toJSON(t);
const send = (client, message, configuration) =>
  client.sendMessage(SendMessageRequest.fromJSON({ message: { role: 'ROLE_USER', ...message }, configuration }));

const out = { sdk };
const hello = await connect(helloUrl);
out.card = hello.agentCard?.name ?? (await hello.getAgentCard()).name;

// Blocking send (the SDK's default): the completed task with its artifact.
const first = await send(hello, { messageId: 'js-m1', parts: [{ text: 'Ada' }] });
out.blocking = wireTask(first);
// The same messageId again: the same task.
out.duplicate = wireTask(await send(hello, { messageId: 'js-m1', parts: [{ text: 'Ada' }] }));
// returnImmediately: the task at once.
out.immediate = wireTask(await send(hello, { messageId: 'js-m2', parts: [{ text: 'Bo' }] }, { returnImmediately: true }));
// GetTask with historyLength 1: the last message only.
out.get = wireTask(await hello.getTask(GetTaskRequest.fromJSON({ id: first.id, historyLength: 1 })));
out.getFull = wireTask(await hello.getTask(GetTaskRequest.fromJSON({ id: first.id })));
const list = await hello.listTasks(ListTasksRequest.fromJSON({ pageSize: 1 }));
out.list = { ids: list.tasks.map((t) => t.id), nextPageToken: list.nextPageToken };
const page2 = await hello.listTasks(ListTasksRequest.fromJSON({ pageSize: 1, pageToken: list.nextPageToken }));
out.list2 = { ids: page2.tasks.map((t) => t.id), nextPageToken: page2.nextPageToken };

// Stream the slow workflow until its node says "started", resubscribe, cancel.
const slow = await connect(slowUrl);
out.stream = [];
let taskId = '';
for await (const ev of slow.sendMessageStream(SendMessageRequest.fromJSON({
  message: { role: 'ROLE_USER', messageId: 'js-s1', parts: [{ data: {} }] },
}))) {
  const w = StreamResponse.toJSON(ev);
  out.stream.push(w);
  if (w.task) taskId = w.task.id;
  const text = w.statusUpdate?.status?.message?.parts?.[0]?.text ?? '';
  if (text.includes('started')) break;
}
out.resubscribed = [];
const sub = (async () => {
  for await (const ev of slow.resubscribeTask(SubscribeToTaskRequest.fromJSON({ id: taskId }))) {
    out.resubscribed.push(StreamResponse.toJSON(ev));
  }
})();
// Let the subscription's first event (the task as it is) arrive first.
for (let i = 0; i < 100 && out.resubscribed.length === 0; i++) await new Promise((r) => setTimeout(r, 50));
out.cancel = wireTask(await slow.cancelTask(CancelTaskRequest.fromJSON({ id: taskId })));
await sub;
out.after = wireTask(await slow.getTask(GetTaskRequest.fromJSON({ id: taskId })));

if (reviewUrl) {
  // INPUT_REQUIRED, then the answer as the next message on the task.
  const review = await connect(reviewUrl);
  const asked = await send(review, { messageId: 'js-r1', parts: [{ text: 'D' }] });
  out.asked = wireTask(asked);
  out.answered = wireTask(await send(review, { messageId: 'js-r2', taskId: asked.id, contextId: asked.contextId, parts: [{ text: 'approve' }] }));
}
process.stdout.write(JSON.stringify(out) + '\n');

