#!/usr/bin/env bash
# make test: install what the tests need, check formatting and vet, then run
# every test with -race under a private X server (Xvfb) and inside a private
# D-Bus session that has a real, unlocked Secret Service (gnome-keyring), so the
# GUI smoke test and the keyring round trip run instead of skipping.
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."

# The acceptance tests that must run (not skip) and that are shown verbosely.
smoke_test=TestGUISmoke
run_test=TestGUIRunsSampleAgainstDemoAgent
failure_gui_test=TestGUIFailureHandlingRetryAndErrorBranch
history_gui_test=TestGUIRunHistory
layout_gui_test=TestGUILayout1024
items_gui_test=TestGUIWindowItems
triggers_gui_test=TestGUITriggersInWindow
interop_test=TestInterop
mcp_interop_test=TestInteropMCP
toolapp_interop_test=TestInteropToolApp
mcp_conformance_test=TestMCPConformanceClient
oauth_conformance_test=TestOAuthConformance
mcp_server_conformance_test=TestConformanceServer
keyring_test=TestKeyringRoundTrip_RealSecretService
serve_test=TestServeA2A
serve_mcp_test=TestServeMCPConformance
serve_mcp_clients_test=TestServeMCPClients
triggers_test=TestServeTriggers
push_test=TestServePush
gotest_flags=(-race -timeout 30m -p 2)
# TEST_PKGS narrows the run while working on a few packages (default ./...).
read -r -a test_pkgs <<<"${TEST_PKGS:-./...}"

# session runs inside dbus-run-session: start the Secret Service, wait for it
# to own its bus name, then run the tests.
session() {
	local work=$1

	# A fresh HOME so the keyring, Fyne's settings and os.UserConfigDir start
	# empty; the Go caches stay where they were so nothing is rebuilt.
	export HOME=$work/home XDG_RUNTIME_DIR=$work/run
	unset XDG_CONFIG_HOME XDG_DATA_HOME XDG_CACHE_HOME XDG_STATE_HOME
	mkdir -p "$HOME" && mkdir -m 700 -p "$XDG_RUNTIME_DIR"

	local out
	if ! out=$(printf 'workrun-test' | gnome-keyring-daemon --unlock --components=secrets); then
		echo "FAIL: gnome-keyring-daemon --unlock --components=secrets did not start" >&2
		return 1
	fi
	# It prints GNOME_KEYRING_CONTROL=…; the Secret Service itself is found on the bus.
	while IFS= read -r kv; do
		[[ $kv == *=* ]] && export "${kv?}"
	done <<<"$out"

	local owner=false
	for _ in $(seq 1 100); do
		if dbus-send --session --print-reply --dest=org.freedesktop.DBus /org/freedesktop/DBus \
			org.freedesktop.DBus.NameHasOwner string:org.freedesktop.secrets 2>/dev/null | grep -q 'boolean true'; then
			owner=true
			break
		fi
		sleep 0.1
	done
	if ! $owner; then
		echo "FAIL: gnome-keyring-daemon did not take the bus name org.freedesktop.secrets within 10 s" >&2
		return 1
	fi
	echo "secret service: org.freedesktop.secrets is owned on the session bus (gnome-keyring)"

	local status=0
	# Everything else, quietly; then the acceptance tests verbosely so the
	# log shows that they ran.
	local acceptance="${smoke_test}|${run_test}|${failure_gui_test}|${history_gui_test}|${layout_gui_test}|${items_gui_test}|${triggers_gui_test}|${keyring_test}|${interop_test}|${mcp_interop_test}|${mcp_conformance_test}|${oauth_conformance_test}|${toolapp_interop_test}|${mcp_server_conformance_test}|${serve_test}|${serve_mcp_test}|${serve_mcp_clients_test}|${triggers_test}|${push_test}"
	# The root package's other real-window tests (TestGUI*, each on its
	# own private Xvfb) mostly wait for windows and processes: they run in
	# a go test process of their own beside the rest, which would otherwise
	# wait for them at the end (they are ~7 of the root package's 14 minutes).
	local unit_gui_status=0 unit_root_status=0 unit_gui_pid= unit_root_pid=
	if [ -z "${TEST_PKGS:-}" ]; then
		local others
		others=$(go list ./... | grep -vx workrun)
		echo "== go test ${gotest_flags[*]} -run '^TestGUI' -skip acceptance . (beside the next two)"
		go test "${gotest_flags[@]}" -count=1 -run '^TestGUI' -skip "^(${acceptance})\$" . >"$work/unit-gui.log" 2>&1 &
		unit_gui_pid=$!
		echo "== go test ${gotest_flags[*]} -skip acceptance and TestGUI* . (beside the next)"
		go test "${gotest_flags[@]}" -skip "^(${acceptance}|TestGUI.*)\$" . >"$work/unit-root.log" 2>&1 &
		unit_root_pid=$!
		echo "== go test ${gotest_flags[*]} -skip acceptance (every other package)"
		# shellcheck disable=SC2086 # one package a word
		go test "${gotest_flags[@]}" -skip "^(${acceptance})\$" $others || status=1
		wait "$unit_root_pid" || unit_root_status=1
		cat "$work/unit-root.log"
		wait "$unit_gui_pid" || unit_gui_status=1
		cat "$work/unit-gui.log"
		[ "$unit_gui_status" -eq 0 ] && [ "$unit_root_status" -eq 0 ] || status=1
	else
		echo "== go test ${gotest_flags[*]} ${test_pkgs[*]}"
		go test "${gotest_flags[@]}" -skip "^(${acceptance})\$" "${test_pkgs[@]}" || status=1
	fi

	# The acceptance tests in two go test processes side by side: the
	# real-window tests (one X display, so one after another) and all the
	# others (suites, servers, keyring). Each set is sequential within
	# itself; together they keep make test under 30 minutes on 2 cores, and
	# every test must pass with the other set's load beside it.
	local gui_tests="${smoke_test}|${run_test}|${failure_gui_test}|${history_gui_test}|${layout_gui_test}|${items_gui_test}|${triggers_gui_test}"
	local other_tests="${keyring_test}|${interop_test}|${mcp_interop_test}|${mcp_conformance_test}|${oauth_conformance_test}|${toolapp_interop_test}|${mcp_server_conformance_test}|${serve_test}|${serve_mcp_test}|${serve_mcp_clients_test}|${triggers_test}|${push_test}"
	local pkgs=(.)
	[ -d credentials ] && pkgs+=(./credentials)
	pkgs+=(./a2a ./nodes/remotemcp ./nodes/toolapp ./mcp/demoserver)
	echo "== go test -v -run '^(${gui_tests})\$' . (real window, beside the next)"
	echo "== go test -v -run '^(${other_tests})\$' ${pkgs[*]}"
	local gui_status=0 other_status=0
	go test "${gotest_flags[@]}" -count=1 -v -run "^(${gui_tests})\$" . >"$work/acceptance-gui.log" 2>&1 &
	local gui_pid=$!
	go test "${gotest_flags[@]}" -count=1 -v -run "^(${other_tests})\$" "${pkgs[@]}" 2>&1 |
		tee "$work/acceptance-other.log" || other_status=1
	wait "$gui_pid" || gui_status=1
	# The real-window tests' log, printed whole once they are done.
	cat "$work/acceptance-gui.log"
	cat "$work/acceptance-gui.log" "$work/acceptance-other.log" >"$work/acceptance.log"
	[ "$gui_status" -eq 0 ] && [ "$other_status" -eq 0 ] || status=1

	report "$work/acceptance.log" "$smoke_test" "GUI smoke test (real binary under Xvfb)" || status=1
	report "$work/acceptance.log" "$run_test" "GUI run of the Remote Agent sample against the demo agent (real window)" || status=1
	report "$work/acceptance.log" "$failure_gui_test" "GUI retry policy and error branch, run panel in English and Chinese (real window)" || status=1
	report "$work/acceptance.log" "$history_gui_test" "GUI run history: Run again runs the saved edit, a workflow shows its last run (real window, en+zh)" || status=1
	report "$work/acceptance.log" "$layout_gui_test" "GUI at 1024x700: readable zoom, five run rows, long lines, files by name with Open, divider drag (real window, OCR)" || status=1
	report "$work/acceptance.log" "$items_gui_test" "GUI run inputs prefilled selected, typing replaces them; a credential added in Settings shows at once in the open node (issue 23 items 6, 2; real window, en+zh)" || status=1
	report "$work/acceptance.log" "$triggers_gui_test" "GUI: the open window fires a */1 s schedule into run records (no serve running); the start node's Triggers section shows the next fire and the last fires (real window, en+zh)" || status=1
	report "$work/acceptance.log" "$interop_test" "interop suite (a2a-go demo agent and @a2a-js/sdk 1.3.0 server)" || status=1
	report "$work/acceptance.log" "$mcp_interop_test" "MCP interop suite (@modelcontextprotocol/server-everything 2026.8.31 and the go-sdk demo server)" || status=1
	report "$work/acceptance.log" "$toolapp_interop_test" "Tool App over stdio (@modelcontextprotocol/server-everything and server-filesystem 2026.8.31)" || status=1
	report "$work/acceptance.log" "$triggers_test" "workrun serve triggers: a */1 s schedule fires three times, SIGKILL, restart: one run per fire, the downtime one run (missed run_once); webhook HMAC valid 202, wrong/old/replayed 401 and no run, one Idempotency-Key one run (real binary, real keyring)" || status=1
	report "$work/acceptance.log" "$push_test" "Remote Agent waits by push under workrun serve: 0 connections while it waits, the push settles it with one GetTask, a push missed while serve was down is caught by one GetTask at restart (real serve, @a2a-js/sdk 1.3.0 with push)" || status=1
	report "$work/acceptance.log" "$serve_test" "workrun serve as an A2A agent: a2a-go a2aclient, one run per messageId across two processes, SIGKILL and restart, Remote Agent node, non-loopback refusal, 401 (real binary, real keyring)" || status=1
	report "$work/acceptance.log" "$serve_mcp_test" "workrun serve as MCP tools: the conformance suite's server scenarios, both revisions (real binary)" || status=1
	report "$work/acceptance.log" "$serve_mcp_clients_test" "workrun serve as MCP tools: the TypeScript SDK v2 client and the Remote MCP Tool node, both revisions: a task to completion, tasks/cancel with one inner cancel, a Human Review answered, SIGKILL and restart (real binary)" || status=1
	report "$work/acceptance.log" "$keyring_test" "keyring round trip (real Secret Service)" || status=1
	report "$work/acceptance.log" "$oauth_conformance_test" "MCP conformance suite, client-credentials extension scenarios (workrun credential login, real keyring)" || status=1
	report "$work/acceptance.log" "$mcp_conformance_test" "MCP conformance suite, every client scenario 2025-11-25 and 2026-07-28 list, scored and unscored (workrun run, check-mcp, credential login; no revision given)" || status=1
	grep -E 'MCP conformance, client scenarios required by|conformance client [0-9-]+ [^ ]+: [0-9]+/[0-9]+ checks passed' "$work/acceptance.log" | sed 's/^ *main_mcpconformance_test.go:[0-9]*: //' || true
	report "$work/acceptance.log" "$mcp_server_conformance_test" "MCP conformance suite, server scenarios, against the demo server (2026-07-28 with the Tasks extension, 2025-11-25)" || status=1
	grep -o 'conformance server [0-9-]*: .* checks)' "$work/acceptance.log" || true
	return $status
}

# report prints "NAME: PASS" when test passed, and fails when it failed,
# skipped or did not run at all.
report() {
	local log=$1 test=$2 name=$3
	if grep -q -- "^--- PASS: ${test} " "$log"; then
		echo "$name: PASS"
	elif grep -q -- "^--- SKIP: ${test} " "$log"; then
		echo "$name: SKIPPED (must run under make test)" >&2
		return 1
	elif grep -q -- "^--- FAIL: ${test} " "$log"; then
		echo "$name: FAIL" >&2
		return 1
	else
		echo "$name: NOT RUN (no test ${test} found)" >&2
		return 1
	fi
}

if [ "${1:-}" = __session ]; then
	session "$2"
	exit
fi

scripts/deps.sh test

# npm_ci DIR installs DIR's npm packages from its lockfile, unless its
# node_modules is newer than the lockfile.
npm_ci() {
	local dir=$1
	[ -f "$dir/package-lock.json" ] || return 0
	if [ "$dir/node_modules/.package-lock.json" -nt "$dir/package-lock.json" ]; then
		echo "npm: $dir/node_modules is up to date"
	else
		echo "npm: npm ci in $dir"
		(cd "$dir" && npm ci --no-audit --no-fund --loglevel=error)
	fi
}

npm_ci a2a/testdata/jsagent    # the JavaScript A2A peer of the interop tests
npm_ci mcp/testdata/everything # the MCP reference server of the MCP interop test
npm_ci mcp/testdata/conformance # the official MCP conformance suite and its Node 22
npm_ci mcp/testdata/filesystem # the MCP server the Tool App tests start over stdio
npm_ci mcp/testdata/tsserver   # the TypeScript SDK v2 interop peer (mcp/mcptest)
npm_ci serve/testdata/tsclient # the TypeScript SDK v2 client against workrun serve (TestServeMCPClients)

echo "== gofmt"
mapfile -t gofiles < <(find . \( -name .git -o -name node_modules \) -prune -o -name '*.go' -type f -print)
unformatted=$(gofmt -l "${gofiles[@]}")
if [ -n "$unformatted" ]; then
	echo "FAIL: gofmt would change these files (run gofmt -w on them):" >&2
	echo "$unformatted" >&2
	exit 1
fi

echo "== no merge-conflict markers in tracked files"
if git rev-parse --git-dir >/dev/null 2>&1 && markers=$(git grep -nE '^(<<<<<<< |>>>>>>> )' -- ':!*.png' ':!third_party'); then
	echo "FAIL: a merge conflict was committed unresolved:" >&2
	echo "$markers" >&2
	exit 1
fi

echo "== go vet ./... (and the GL frame probe, built only with its tag)"
go vet ./...
go vet -tags glprobe ./ui

echo "== staticcheck ./... (pinned version; docs/conventions.md)"
go run honnef.co/go/tools/cmd/staticcheck@v0.8.2 ./...

work=$(mktemp -d "${TMPDIR:-/tmp}/workrun-test.XXXXXX")
xvfb_pid=
cleanup() {
	if [ -n "$xvfb_pid" ]; then
		kill "$xvfb_pid" 2>/dev/null || true
		wait "$xvfb_pid" 2>/dev/null || true
	fi
	rm -rf "$work"
}
trap cleanup EXIT

# A private X server on the first free display number, for the GUI tests.
Xvfb -displayfd 3 -screen 0 1280x800x24 -nolisten tcp 3>"$work/display" 2>"$work/xvfb.log" &
xvfb_pid=$!
for _ in $(seq 1 100); do
	[ -s "$work/display" ] && break
	sleep 0.1
done
if ! [ -s "$work/display" ]; then
	echo "FAIL: Xvfb did not start:" >&2
	cat "$work/xvfb.log" >&2
	exit 1
fi
export DISPLAY=":$(tr -d '[:space:]' <"$work/display")"
echo "xvfb: DISPLAY=$DISPLAY"

# Keep the real Go caches and settings although HOME changes below.
export GOPATH="$(go env GOPATH)" GOCACHE="$(go env GOCACHE)" GOMODCACHE="$(go env GOMODCACHE)" GOENV="$(go env GOENV)"
# make test provides every component, so tests must not skip for lack of one.
export CI="${CI:-true}"

# release_checks builds make dist's files and checks them (Linux tarball,
# Windows .exe run under Wine, SHA256SUMS), then installs the tarball's
# binary into a temporary prefix, starts it from its menu entry and
# uninstalls it (scripts/dist.sh, scripts/install.sh). Outside the D-Bus
# session on purpose: a menu start may find no keyring.
release_checks() {
	local status=0
	echo "== make dist: scripts/dist.sh (build and check)"
	if VERSION=$(scripts/version.sh) scripts/dist.sh; then
		echo "dist (Linux tarball, Windows .exe under Wine, SHA256SUMS): PASS"
	else
		echo "dist (Linux tarball, Windows .exe under Wine, SHA256SUMS): FAIL" >&2
		return 1
	fi
	echo "== make install / uninstall: scripts/install.sh selftest"
	mkdir -p "$work/release"
	tar -xJf dist/workrun-*-linux-amd64.tar.xz -C "$work/release"
	if BIN=$work/release/workrun/usr/local/bin/workrun scripts/install.sh selftest; then
		echo "install, first start from the menu entry, uninstall (temporary prefix): PASS"
	else
		echo "install, first start from the menu entry, uninstall (temporary prefix): FAIL" >&2
		status=1
	fi
	return $status
}

status=0
dbus-run-session -- "$0" __session "$work" || status=1
if [ -n "${TEST_PKGS:-}" ]; then
	echo "dist and install checks: not run (TEST_PKGS narrows the run; make test runs them)"
else
	release_checks || status=1
fi
if [ "$status" -eq 0 ]; then
	echo "make test: PASS (gofmt, go vet, go test -race with Xvfb and a real Secret Service, make dist and make install checks)"
else
	echo "make test: FAIL (see the output above)" >&2
	exit 1
fi
