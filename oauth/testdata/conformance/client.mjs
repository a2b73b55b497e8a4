// The conformance client for auth/* scenarios. It drives the real workrun
// binary ($WORKRUN) as a person would: `workrun credential login URL` (sign
// in in the browser, here browser.mjs; the connection test lists the
// tools), then `workrun run` of a one-node flow that calls the tool with the
// saved credential. A run never signs in by itself: when it fails with "sign
// in to ORIGIN again" (more scopes needed, the authorization server
// changed), the person signs in again and runs again — so does this script,
// once.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, dirname, basename } from 'node:path';
import { fileURLToPath } from 'node:url';

const serverURL = process.argv[process.argv.length - 1];
const workrun = process.env.WORKRUN;
if (!workrun) {
  console.error('client.mjs: set WORKRUN to the workrun binary');
  process.exit(2);
}
const here = dirname(fileURLToPath(import.meta.url));
const ctx = process.env.MCP_CONFORMANCE_CONTEXT ? JSON.parse(process.env.MCP_CONFORMANCE_CONTEXT) : {};
const dir = mkdtempSync(join(tmpdir(), 'workrun-conf-'));
// The keyring is shared by parallel runs: one credential name per run.
const name = 'conformance-' + basename(dir);
const env = { ...process.env, BROWSER: `${process.execPath} ${join(here, 'browser.mjs')}` };

function workrunCmd(args, input) {
  const r = spawnSync(workrun, ['--data-dir', join(dir, 'data'), ...args], { env, input: input ?? '', encoding: 'utf8', timeout: 60000 });
  process.stdout.write(r.stdout ?? '');
  process.stderr.write(r.stderr ?? '');
  return { code: r.status ?? 1, out: (r.stdout ?? '') + (r.stderr ?? '') };
}

const login = ['credential', 'login', serverURL, '--name', name, '--timeout', '20'];
let stdin;
if (ctx.client_id) login.push('--client-id', ctx.client_id);
if (ctx.client_secret) {
  login.push('--client-secret-stdin');
  stdin = ctx.client_secret + '\n';
}
if (ctx.private_key_pem) {
  const key = join(dir, 'client-key.pem');
  writeFileSync(key, ctx.private_key_pem, { mode: 0o600 });
  login.push('--private-key-file', key);
}
// A workload's identity token (auth/wif-jwt-bearer): the JWT bearer grant.
if (ctx.valid_jwt) {
  const f = join(dir, 'workload.jwt');
  writeFileSync(f, ctx.valid_jwt, { mode: 0o600 });
  login.push('--assertion-file', f);
}
// Enterprise-managed authorization: the person's ID token from their
// identity provider, exchanged there for an ID-JAG.
if (ctx.idp_id_token) {
  const f = join(dir, 'id-token.jwt');
  writeFileSync(f, ctx.idp_id_token, { mode: 0o600 });
  login.push('--id-token-file', f, '--idp-issuer', ctx.idp_issuer);
  if (ctx.idp_client_id) login.push('--idp-client-id', ctx.idp_client_id);
}
if ((process.env.MCP_CONFORMANCE_SCENARIO ?? '').startsWith('auth/client-credentials')) login.push('--client-credentials');
// The suite's stand-in for a Client ID Metadata Document URL of this client.
login.push('--client-metadata-url', 'https://conformance-test.local/client-metadata.json');

const flow = join(dir, 'flow.json');
writeFileSync(flow, JSON.stringify({
  name: 'conformance', state: { out: 'text' },
  nodes: [
    { id: 'start', type: 'start', position: { x: 0, y: 0 } },
    { id: 'call', type: 'remote_mcp', position: { x: 200, y: 0 },
      config: { url: serverURL, tool: 'test-tool', arguments: {}, output: 'out', credential: name, task: 'never', timeout_seconds: 30 } },
    { id: 'end', type: 'output', config: { fields: ['out'] }, position: { x: 400, y: 0 } },
  ],
  edges: [{ from: 'start', to: 'call' }, { from: 'call', to: 'end' }],
}));

function finish(code) {
  workrunCmd(['credential', 'delete', name]); // leave nothing in the keyring
  process.exit(code);
}
if (workrunCmd(login, stdin).code !== 0) finish(1);
let run = workrunCmd(['run', flow]);
if (run.code !== 0 && /sign in to .* again/.test(run.out)) {
  if (workrunCmd(login, stdin).code !== 0) finish(1);
  run = workrunCmd(['run', flow]);
}
finish(run.code);
