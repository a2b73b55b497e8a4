// The conformance client for every client scenario but auth/* (those are
// oauth/testdata/conformance/client.mjs). It drives the real workrun binary
// ($WORKRUN) as a person would, and names no MCP revision anywhere: the
// product detects it. First `workrun check-mcp --json URL` (the connection
// test: connect, list the tools), then, for each tool call the scenario asks
// for (MCP_CONFORMANCE_CONTEXT's toolCalls; else every listed tool with
// example arguments from its input schema), `workrun run` of a one-node
// Remote MCP Tool flow with that tool and those arguments; its `answers`
// config ({}: each form's defaults) answers the server's input requests.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const serverURL = process.argv[process.argv.length - 1];
const workrun = process.env.WORKRUN;
if (!workrun) {
  console.error('client.mjs: set WORKRUN to the workrun binary');
  process.exit(2);
}
const ctx = process.env.MCP_CONFORMANCE_CONTEXT ? JSON.parse(process.env.MCP_CONFORMANCE_CONTEXT) : {};
const dir = mkdtempSync(join(tmpdir(), 'workrun-mcpconf-'));

function workrunCmd(args) {
  const r = spawnSync(workrun, ['--data-dir', join(dir, 'data'), ...args], { encoding: 'utf8', timeout: 120000 });
  process.stdout.write(r.stdout ?? '');
  process.stderr.write(r.stderr ?? '');
  return { code: r.status ?? 1, out: r.stdout ?? '' };
}

// exampleValue is a value of the schema's type (its default or first enum
// member when it has one), for a tool the scenario does not describe.
function exampleValue(s) {
  if (!s || typeof s !== 'object') return null;
  if ('default' in s) return s.default;
  if (Array.isArray(s.enum) && s.enum.length) return s.enum[0];
  switch (Array.isArray(s.type) ? s.type[0] : s.type) {
    case 'string': return 'example';
    case 'integer': case 'number': return 1;
    case 'boolean': return true;
    case 'array': return [];
    case 'object': return exampleObject(s);
  }
  return null;
}
function exampleObject(s) {
  const out = {};
  for (const k of s?.required ?? []) out[k] = exampleValue(s.properties?.[k]);
  return out;
}

const check = workrunCmd(['check-mcp', serverURL, '--json']);
if (check.code !== 0) process.exit(check.code);
let report;
try {
  report = JSON.parse(check.out);
} catch (e) {
  console.error('client.mjs: check-mcp --json printed no JSON: ' + e);
  process.exit(1);
}
// What a person does with the listed tools, for the scenarios that ask for
// more (or less) than calling each one (the suite names the scenario in
// MCP_CONFORMANCE_SCENARIO; the reference client does the same per scenario):
//   json-schema-2020-12-preservation: pass the input schema check-mcp
//     printed for json_schema_2020_12_tool, as it is, to json_schema_echo
//     (the suite diffs what it gets back against what it sent);
//   json-schema-ref-no-deref: list the tools only (the server has no
//     tools/call; what is judged is that nothing fetched the schema's
//     network $ref).
const plans = {
  'json-schema-2020-12-preservation': tools => {
    const focal = tools.find(t => t.name === 'json_schema_2020_12_tool');
    if (!focal) throw new Error('check-mcp listed no json_schema_2020_12_tool');
    return [{ name: 'json_schema_echo', args: { schema: focal.input_schema } }];
  },
  'json-schema-ref-no-deref': () => [],
};
let calls = (ctx.toolCalls ?? []).map(c => ({ name: c.name, args: c.arguments ?? {} }));
const plan = plans[process.env.MCP_CONFORMANCE_SCENARIO ?? ''];
if (calls.length === 0 && plan) calls = plan(report.tools ?? []);
else if (calls.length === 0) calls = (report.tools ?? []).map(t => ({ name: t.name, args: exampleObject(t.input_schema) }));

let status = 0;
calls.forEach((c, i) => {
  const flow = join(dir, `flow${i}.json`);
  // A string argument is a template: braces are kept literal by JSON
  // encoding them as an object value the node passes on (no {{ }} here).
  writeFileSync(flow, JSON.stringify({
    name: 'conformance', state: { out: 'text' },
    nodes: [
      { id: 'start', type: 'start', position: { x: 0, y: 0 } },
      { id: 'call', type: 'remote_mcp', position: { x: 200, y: 0 },
        config: { url: serverURL, tool: c.name, arguments: c.args, output: 'out', answers: {}, timeout_seconds: 60 } },
      { id: 'end', type: 'output', config: { fields: ['out'] }, position: { x: 400, y: 0 } },
    ],
    edges: [{ from: 'start', to: 'call' }, { from: 'call', to: 'end' }],
  }));
  const run = workrunCmd(['run', flow]);
  console.log(`client.mjs: run of ${c.name}: exit ${run.code}`);
  if (run.code !== 0) status = run.code;
});
process.exit(status);
