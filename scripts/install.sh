#!/usr/bin/env bash
# make install / make uninstall: put Workrun into PREFIX (default ~/.local) so
# it appears in the desktop's application menu, and take it out again.
#
#   scripts/install.sh install     binary, hicolor icon set, .desktop entry, docs,
#                                  a systemd user unit for workrun serve (not enabled)
#   scripts/install.sh uninstall   remove exactly what install wrote
#   scripts/install.sh selftest    install into a temporary prefix, check every
#                                  file, start it the way a menu does, uninstall,
#                                  check nothing is left (make test runs this)
#
# PREFIX and BIN (the binary to install, default bin/workrun) come from the
# environment. install writes a manifest, PREFIX/share/workrun/install-manifest,
# of every file and every directory it created; uninstall removes those and
# nothing else (a directory only if it is empty by then).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

# Scratch directories, removed on exit.
scratch=()
trap 'rm -rf "${scratch[@]}"' EXIT

PREFIX=${PREFIX:-$HOME/.local}
BIN=${BIN:-bin/workrun}
# The desktop id and icon name are the app id from FyneApp.toml, as in the
# fyne package tarball.
app_id=$(sed -n 's/^[[:space:]]*ID[[:space:]]*=[[:space:]]*"\(.*\)"/\1/p' FyneApp.toml | head -n1)

# toml_value prints a string value, or an array joined with ";" and ended
# with ";" (the .desktop list form), of KEY in FyneApp.toml.
toml_value() {
	local line
	line=$(grep -E "^[[:space:]]*$1[[:space:]]*=" FyneApp.toml | head -n1 | sed -E 's/^[^=]*=[[:space:]]*//')
	if [[ $line == \[* ]]; then
		line=${line#[}
		line=${line%]}
		printf '%s' "$line" | sed -E 's/"[[:space:]]*,[[:space:]]*"/;/g; s/^[[:space:]]*"//; s/"[[:space:]]*$/;/'
	else
		line=${line#\"}
		printf '%s' "${line%\"}"
	fi
}

manifest_path() { echo "$1/share/workrun/install-manifest"; }

# desktop_entry prints the .desktop entry for a binary installed at exe.
desktop_entry() {
	local exe=$1 exec_field=$1
	# The Desktop Entry spec quotes an Exec argument that has spaces.
	[[ $exe == *[[:space:]]* ]] && exec_field="\"$exe\""
	cat <<DESKTOP
[Desktop Entry]
Type=Application
Name=$(toml_value Name)
GenericName=$(toml_value GenericName)
Comment=$(toml_value Comment)
Exec=$exec_field
TryExec=$exe
Icon=$app_id
Terminal=false
Categories=$(toml_value Categories)
Keywords=$(toml_value Keywords)
StartupWMClass=Workrun
DESKTOP
}

# serve_unit_name is the systemd user unit that runs workrun serve. It goes
# to PREFIX/share/systemd/user, a directory systemd's user manager reads for
# PREFIX ~/.local and /usr/local alike; install never enables it: the person
# does (README "Serving while the window is closed").
serve_unit_name=workrun-serve.service

# serve_unit prints the unit for a binary installed at exe. SIGTERM makes
# serve stop taking calls and exit without cancelling anything (docs/serve.md);
# exit status 2 is a usage error (nothing published yet), which restarting
# would not mend.
serve_unit() {
	local exe=$1
	cat <<UNIT
[Unit]
Description=Workrun: published workflows as A2A agents and MCP tools, their schedules and webhooks
Documentation=file://${exe%/bin/workrun}/share/doc/workrun/README.md

[Service]
ExecStart="$exe" serve
Restart=on-failure
RestartSec=5
RestartPreventExitStatus=2
KillSignal=SIGTERM
TimeoutStopSec=30

[Install]
WantedBy=default.target
UNIT
}

do_install() {
	local prefix=$1
	[ -x "$BIN" ] || {
		echo "install: $BIN is missing; run make install (it builds it first)" >&2
		return 1
	}
	if [ -f "$(manifest_path "$prefix")" ]; then
		echo "install: replacing the earlier installation in $prefix"
		do_uninstall "$prefix"
	fi
	local stage
	stage=$(mktemp -d "${TMPDIR:-/tmp}/workrun-install.XXXXXX")
	scratch+=("$stage")

	# Everything is laid out in a stage first, then copied file by file,
	# each file and each new directory noted in the manifest.
	local exe=$prefix/bin/workrun
	mkdir -p "$stage/bin" "$stage/share/applications" "$stage/share/doc/workrun" "$stage/share/systemd/user"
	cp "$BIN" "$stage/bin/workrun"
	desktop_entry "$exe" >"$stage/share/applications/$app_id.desktop"
	serve_unit "$exe" >"$stage/share/systemd/user/$serve_unit_name"
	go run ./scripts/icons -src assets/icon.png -name "$app_id" -o "$stage/share/icons/hicolor" >/dev/null
	cp docs/workflow-format.md README.md "$stage/share/doc/workrun/"
	if [ -f assets/licenses/THIRD_PARTY_LICENSES.txt ]; then
		cp assets/licenses/THIRD_PARTY_LICENSES.txt "$stage/share/doc/workrun/"
	fi

	local manifest
	manifest=$(manifest_path "$prefix")
	local entries=() rel dir
	while IFS= read -r -d '' rel; do
		rel=${rel#./}
		dir=$(dirname "$prefix/$rel")
		# Note each directory this install creates, outermost first.
		local missing=() d=$dir
		while [ ! -d "$d" ]; do
			missing=("$d" "${missing[@]}")
			d=$(dirname "$d")
		done
		for d in "${missing[@]}"; do
			mkdir "$d"
			entries+=("d $d")
		done
		local mode=0644
		[ -x "$stage/$rel" ] && mode=0755
		install -m "$mode" "$stage/$rel" "$prefix/$rel"
		entries+=("f $prefix/$rel")
	done < <(cd "$stage" && find . -type f -print0 | sort -z)
	[ -d "$(dirname "$manifest")" ] || {
		mkdir -p "$(dirname "$manifest")"
		entries+=("d $(dirname "$manifest")")
	}
	entries+=("f $manifest")
	printf '%s\n' "${entries[@]}" >"$manifest"
	echo "install: $(grep -c '^f ' "$manifest") files into $prefix (manifest: $manifest)"
	echo "install: the menu entry starts $exe"
	echo "install: to serve published workflows while the window is closed: systemctl --user daemon-reload && systemctl --user enable --now ${serve_unit_name%.service}"
	case ":$PATH:" in
	*":$prefix/bin:"*) ;;
	*) echo "install: $prefix/bin is not on PATH; add it to run workrun from a terminal" ;;
	esac
}

do_uninstall() {
	local prefix=$1
	local manifest
	manifest=$(manifest_path "$prefix")
	if [ ! -f "$manifest" ]; then
		echo "uninstall: nothing to do: no $manifest (Workrun was not installed into $prefix by make install)" >&2
		return 1
	fi
	# Read it whole first: the manifest lists itself.
	local lines line n=0 i
	mapfile -t lines <"$manifest"
	# A unit the person enabled is stopped and disabled before its file goes,
	# so no enable link is left pointing at nothing.
	if grep -qx "f $prefix/share/systemd/user/$serve_unit_name" "$manifest" && command -v systemctl >/dev/null &&
		systemctl --user is-enabled --quiet "$serve_unit_name" 2>/dev/null; then
		echo "uninstall: stopping and disabling $serve_unit_name"
		systemctl --user disable --now "$serve_unit_name"
	fi
	for line in "${lines[@]}"; do
		[[ $line == "f "* ]] || continue
		rm -f -- "${line#f }"
		n=$((n + 1))
	done
	# Directories innermost first; one that holds something else stays.
	for ((i = ${#lines[@]} - 1; i >= 0; i--)); do
		line=${lines[i]}
		[[ $line == "d "* ]] && { rmdir -- "${line#d }" 2>/dev/null || true; }
	done
	echo "uninstall: removed $n files from $prefix"
}

# selftest fails with a reason.
fail() {
	echo "install check: FAIL: $*" >&2
	exit 1
}

selftest() {
	local work
	work=$(mktemp -d "${TMPDIR:-/tmp}/workrun-installcheck.XXXXXX")
	scratch+=("$work")
	# A prefix with a file of the user's own, which must survive uninstall.
	local prefix=$work/prefix
	mkdir -p "$prefix/share/applications"
	echo keep >"$prefix/share/applications/other.desktop"
	local before
	before=$(cd "$prefix" && find . | sort)

	PREFIX=$prefix do_install "$prefix" >"$work/install.log" || fail "install: $(cat "$work/install.log")"
	local desktop=$prefix/share/applications/$app_id.desktop
	local want=(
		"bin/workrun"
		"share/applications/$app_id.desktop"
		"share/doc/workrun/workflow-format.md"
		"share/doc/workrun/README.md"
		"share/workrun/install-manifest"
		"share/systemd/user/$serve_unit_name"
	)
	local n
	for n in 16 24 32 48 64 128 256; do
		want+=("share/icons/hicolor/${n}x${n}/apps/$app_id.png")
	done
	local f
	for f in "${want[@]}"; do
		[ -s "$prefix/$f" ] || fail "install did not write $f"
	done
	[ -x "$prefix/bin/workrun" ] || fail "bin/workrun is not executable"
	cmp -s "$BIN" "$prefix/bin/workrun" || fail "bin/workrun differs from $BIN"
	for n in 16 48 256; do
		file "$prefix/share/icons/hicolor/${n}x${n}/apps/$app_id.png" | grep -q "PNG image data, $n x $n" ||
			fail "the ${n}x${n} icon is not a ${n}x${n} PNG"
	done
	desktop-file-validate "$desktop" || fail "desktop-file-validate rejects $desktop"
	grep -qx "Exec=$prefix/bin/workrun" "$desktop" || fail ".desktop Exec is not the installed binary"
	grep -qx "Icon=$app_id" "$desktop" || fail ".desktop Icon is not $app_id"
	# Every file installed is in the manifest, and the manifest lists nothing else.
	diff <(cd "$prefix" && find . -type f ! -name other.desktop | sed 's#^\./##' | sort) \
		<(sed -n "s#^f $prefix/##p" "$(manifest_path "$prefix")" | sort) >"$work/diff" ||
		fail "the manifest does not match the installed files: $(cat "$work/diff")"
	echo "install check: ${#want[@]} files in place, desktop-file-validate accepts the entry, manifest complete"

	first_start "$work" "$desktop"
	serve_unit_check "$work" "$prefix/share/systemd/user/$serve_unit_name"

	# Installing again replaces the installation and keeps one manifest.
	PREFIX=$prefix do_install "$prefix" >"$work/install.log" || fail "second install: $(cat "$work/install.log")"
	PREFIX=$prefix do_uninstall "$prefix" >"$work/uninstall.log" || fail "uninstall: $(cat "$work/uninstall.log")"
	local after
	after=$(cd "$prefix" && find . | sort)
	[ "$before" = "$after" ] || fail "uninstall left or removed something: $(diff <(echo "$before") <(echo "$after"))"
	echo "install check: install twice, uninstall: the prefix is as it was (the user's own file kept)"
}

# ocr_find WORK WORD X Y W H prints the middle ("x y") of the first WORD
# that OCR (tesseract) reads in that part of the screen (clipped to it), or
# nothing. Dark pictures are inverted and all are enlarged twice first, as
# the GUI tests do (guitext_test.go).
ocr_find() {
	local work=$1 word=$2 x=$3 y=$4 w=$5 h=$6 f=$1/ocr.png dark sw sh
	read -r sw sh < <(xdotool getdisplaygeometry)
	w=$((x + w > sw ? sw - x : w))
	h=$((y + h > sh ? sh - y : h))
	dark=$(import -window root -crop "${w}x${h}+${x}+${y}" +repage -colorspace Gray -format '%[fx:mean<0.5]' info: 2>/dev/null) || return 0
	local neg=()
	[ "$dark" = 1 ] && neg=(-negate)
	import -window root -crop "${w}x${h}+${x}+${y}" +repage -colorspace Gray "${neg[@]}" -resize 200% "png:$f" 2>/dev/null || return 0
	OMP_THREAD_LIMIT=1 tesseract "$f" - -l eng --psm 11 --dpi 150 tsv 2>/dev/null |
		awk -F'\t' -v word="$word" -v ox="$x" -v oy="$y" \
			'$1 == 5 && $12 == word { printf "%d %d\n", ox + ($7 + $9 / 2) / 2, oy + ($8 + $10 / 2) / 2; exit }'
}

# ocr_wait WORK WORD X Y W H waits up to 90 s until OCR reads WORD there.
ocr_wait() {
	local i
	for i in $(seq 1 90); do
		[ -n "$(ocr_find "$@")" ] && return 0
		sleep 1
	done
	return 1
}

# ocr_click WORK FIRST WORD X Y W H waits up to 90 s until OCR reads WORD
# there (and FIRST anywhere on the screen, when given: the dialog or menu
# WORD belongs to) and clicks it.
ocr_click() {
	local work=$1 first=$2 word=$3 at i
	shift 3
	for i in $(seq 1 90); do
		if [ -z "$first" ] || [ -n "$(ocr_find "$work" "$first" 0 0 9999 9999)" ]; then
			at=$(ocr_find "$work" "$word" "$@")
			if [ -n "$at" ]; then
				# shellcheck disable=SC2086 # "x y"
				xdotool mousemove $at click 1 && sleep 0.5 && return 0
			fi
		fi
		sleep 1
	done
	return 1
}

# wait_title PATTERN waits up to 90 s for a visible window titled PATTERN.
wait_title() {
	local i
	for i in $(seq 1 450); do
		xdotool search --onlyvisible --name "$1" >/dev/null 2>&1 && return 0
		sleep 0.2
	done
	return 1
}

# first_start starts the installed app the way a desktop menu does: the
# .desktop Exec line, a fresh home, no terminal, none of Workrun's variables
# and no D-Bus session (so no OS keyring), and checks that the window opens
# and the data directory is created.
first_start() {
	local work=$1 desktop=$2
	if [ -z "${DISPLAY:-}" ]; then
		fail "first start needs an X display (make test provides Xvfb)"
	fi
	local exec_line home=$work/home session_env
	exec_line=$(sed -n 's/^Exec=//p' "$desktop")
	mkdir -p "$home"
	# What a desktop session gives every program it starts: the display and
	# its X authority, a home, a PATH, a locale. Nothing of Workrun's own.
	session_env=(DISPLAY="$DISPLAY" HOME="$home" PATH=/usr/bin:/bin LANG=C.UTF-8)
	[ -n "${XAUTHORITY:-}" ] && session_env+=(XAUTHORITY="$XAUTHORITY")
	env -i "${session_env[@]}" $exec_line </dev/null >"$work/start.log" 2>&1 &
	local pid=$! win=
	for _ in $(seq 1 450); do
		win=$(xdotool search --onlyvisible --name '^Workrun( |$)' 2>/dev/null | head -n1 || true)
		[ -n "$win" ] && break
		kill -0 "$pid" 2>/dev/null || break
		sleep 0.2
	done
	if [ -z "$win" ]; then
		kill "$pid" 2>/dev/null || true
		fail "no Workrun window within 90 s of starting $exec_line: $(tail -5 "$work/start.log")"
	fi
	local db=$home/.config/workrun/workrun.db
	[ -f "$db" ] || fail "first start did not create $db"
	kill -TERM "$pid"
	local status=0
	wait "$pid" || status=$?
	[ "$status" -eq 0 ] || fail "Workrun exited with status $status after SIGTERM: $(tail -5 "$work/start.log")"
	echo "install check: first start from the menu entry (no terminal, no environment, no keyring): window shown, $db created, clean exit"

	# The Remote Agent sample against the built-in demo agent, in the same
	# home and still without a keyring, as a person starts it: Help → Sample
	# (the menu bar at the window's top left), then Ctrl+R and Enter to run
	# it with the sample's question.
	env -i "${session_env[@]}" $exec_line </dev/null >"$work/sample.log" 2>&1 &
	pid=$!
	for _ in $(seq 1 450); do
		win=$(xdotool search --onlyvisible --name '^Workrun( |$)' 2>/dev/null | head -n1 || true)
		[ -n "$win" ] && break
		sleep 0.2
	done
	[ -n "$win" ] || fail "no Workrun window for the sample run: $(tail -5 "$work/sample.log")"
	# Each step waits for what a person would see before acting (OCR of
	# the screen, ocr_click): a loaded machine draws late, and the items'
	# places move whenever the window's size or its menus change. Without
	# a keyring the window shows its "No OS keyring" dialog as soon as the
	# check has run: Close it. Then Help (on the menu bar) → Sample:
	# Remote Agent demo, which opens the sample; Ctrl+R, and Enter in the
	# run-inputs dialog runs it with the sample's question.
	ocr_click "$work" keyring Close 0 0 9999 9999 ||
		fail "no 'No OS keyring' dialog with Close on the screen within 90 s: $(tail -5 "$work/sample.log")"
	local help hx
	for _ in $(seq 1 30); do
		help=$(ocr_find "$work" Help 0 0 9999 28)
		[ -n "$help" ] && break
		sleep 1
	done
	[ -n "$help" ] || fail "no Help menu on the menu bar"
	# shellcheck disable=SC2086 # "x y"
	xdotool mousemove $help click 1 || fail "xdotool could not open the Help menu"
	hx=${help%% *}
	# The menu opens under Help; the palette's "Remote Agent" is further left.
	ocr_click "$work" "" Agent $((hx > 40 ? hx - 40 : 0)) 28 520 400 || fail "the Help menu shows no 'Sample: Remote Agent demo'"
	wait_title '^Workrun — Remote Agent demo$' ||
		fail "Help → Sample: Remote Agent demo did not open the sample (window title '$(xdotool getwindowname "$win" 2>/dev/null)')"
	xdotool windowfocus --sync "$win" key ctrl+r || fail "xdotool could not press Ctrl+R"
	ocr_wait "$work" inputs 0 60 9999 400 || fail "Ctrl+R did not open the run-inputs dialog (its title Run inputs)"
	xdotool key Return || fail "xdotool could not press Enter"
	local title=
	for _ in $(seq 1 600); do
		win=$(xdotool search --onlyvisible --name '^Workrun — Remote Agent demo — (succeeded|failed|stopped|interrupted)$' 2>/dev/null | head -n1 || true)
		if [ -n "$win" ]; then
			title=$(xdotool getwindowname "$win")
			break
		fi
		kill -0 "$pid" 2>/dev/null || break
		sleep 0.2
	done
	kill -TERM "$pid" 2>/dev/null || true
	status=0
	wait "$pid" || status=$?
	[[ $title == *"— succeeded" ]] ||
		fail "the Remote Agent sample did not succeed against the demo agent (window title '$title'): $(tail -5 "$work/sample.log")"
	[ "$status" -eq 0 ] || fail "Workrun exited with status $status after the sample run"
	echo "install check: the Remote Agent sample ran against the built-in demo agent without a keyring: '$title'"
}

# serve_unit_check verifies the unit as systemd reads it and starts its
# binary the way the user manager would (a fresh home, no terminal, no
# keyring), serving one workflow file: it must print its endpoints and ready,
# and exit 0 on SIGTERM.
serve_unit_check() {
	local work=$1 unit=$2
	grep -qx "ExecStart=\"$prefix/bin/workrun\" serve" "$unit" || fail "the unit's ExecStart is not the installed binary: $(grep ExecStart "$unit")"
	if command -v systemd-analyze >/dev/null; then
		# verify checks the unit's syntax and that ExecStart exists.
		systemd-analyze verify --man=no "$unit" >"$work/verify.log" 2>&1 ||
			fail "systemd-analyze verify rejects $unit: $(cat "$work/verify.log")"
	fi
	local home=$work/servehome exe
	mkdir -p "$home"
	exe=$(sed -n 's/^ExecStart="\(.*\)" serve$/\1/p' "$unit")
	cp examples/hello.json "$home/hello.json"
	env -i HOME="$home" PATH=/usr/bin:/bin LANG=C.UTF-8 "$exe" serve "$home/hello.json" </dev/null >"$work/serve.log" 2>&1 &
	local pid=$!
	for _ in $(seq 1 150); do
		grep -qx ready "$work/serve.log" && break
		kill -0 "$pid" 2>/dev/null || break
		sleep 0.2
	done
	grep -qx ready "$work/serve.log" || {
		kill "$pid" 2>/dev/null || true
		fail "the unit's workrun serve did not get ready: $(tail -5 "$work/serve.log")"
	}
	grep -q '^a2a http://127.0.0.1:' "$work/serve.log" || fail "the unit's workrun serve printed no a2a URL: $(cat "$work/serve.log")"
	kill -TERM "$pid"
	local status=0
	wait "$pid" || status=$?
	[ "$status" -eq 0 ] || fail "the unit's workrun serve exited with status $status after SIGTERM: $(tail -5 "$work/serve.log")"
	echo "install check: the systemd user unit verifies; its workrun serve got ready and stopped cleanly on SIGTERM"
}

case "${1:-}" in
install) do_install "$PREFIX" ;;
uninstall) do_uninstall "$PREFIX" ;;
selftest) selftest ;;
*)
	echo "usage: $0 install|uninstall|selftest" >&2
	exit 2
	;;
esac
