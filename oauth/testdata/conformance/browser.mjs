// The "system browser" of the conformance tests (BROWSER=node browser.mjs):
// it fetches the authorization URL and follows the authorization server's
// 302 to Workrun's loopback redirect listener, as a person's browser would.
const url = process.argv[process.argv.length - 1];
try {
  const res = await fetch(url, { redirect: 'follow' });
  await res.text();
} catch (e) {
  console.error(`browser.mjs: ${e.message}`);
  process.exit(1);
}
