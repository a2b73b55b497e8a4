#!/usr/bin/env bash
# make screenshot: the README's pictures of sample runs, taken from the real
# binary as a person would take them. For each picture it starts bin/workrun
# on a private X server (Xvfb) of the picture's size, with a fresh HOME and
# data directory and a private D-Bus session holding an unlocked Secret
# Service (gnome-keyring, so no "No OS keyring" dialog), in English or in
# Chinese (the system locale, as a Chinese desktop sets it), and drives the
# window with xdotool only: maximise it, Help → the sample, Ctrl+R, Enter in
# the inputs dialog; once the window title ends in "— failed" (or
# "— succeeded") it drags the run panel taller, selects the Remote Agent in
# the run panel and captures the screen with ImageMagick's import.
#
#   assets/screenshots/parallel-{en,zh}.png            1440×900
#   assets/screenshots/parallel-{en,zh}-1024x700.png   1024×700
#   docs/screenshot-run.png                            1440×900, Remote Agent sample
#
# Only the packages scripts/deps.sh installs are used. SCREENSHOT_ONLY=TEXT
# takes only the pictures whose file name contains TEXT; SCREENSHOT_STEPS=DIR
# keeps a picture of every step in DIR (for finding where a click went).
# The clicks are at fixed places of the layout (menu bar, node list rows);
# when the layout changes, look at the step pictures and move them.
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."
root=$PWD

fail() {
	echo "screenshots: FAIL: $*" >&2
	exit 1
}

# step saves a picture of the screen as step name when SCREENSHOT_STEPS is set.
step() {
	[ -n "${SCREENSHOT_STEPS:-}" ] || return 0
	mkdir -p "$SCREENSHOT_STEPS"
	import -window root "png:$SCREENSHOT_STEPS/$shot_name-$1.png" || true
}

# click moves the pointer to (x, y) of window win and clicks; the pause gives
# the app time to draw what the click opened.
click() {
	xdotool mousemove --window "$win" "$1" "$2"
	sleep 0.2
	xdotool click 1
	sleep "${3:-1}"
}

# wait_title waits until the title of window win matches the extended regular
# expression re, and prints it.
wait_title() {
	local re=$1 title=
	for _ in $(seq 1 900); do
		title=$(xdotool getwindowname "$win" 2>/dev/null || true)
		if [[ $title =~ $re ]]; then
			echo "$title"
			return 0
		fi
		kill -0 "$app" 2>/dev/null || fail "workrun exited while waiting for the title /$re/: $(tail -5 "$work/app.log")"
		sleep 0.2
	done
	step timeout
	fail "the window title '$title' never matched /$re/ within 180 s"
}

# shoot runs inside dbus-run-session: the Secret Service, the app, the clicks
# and the picture, for one screenshot.
#   shoot WORK LANG(en|zh) WIDTH HEIGHT SAMPLE(parallel|remote) OUT
shoot() {
	work=$1
	local lng=$2 sw=$3 sh=$4 sample=$5 out=$6
	shot_name=$(basename "$out" .png)

	# A fresh HOME: the keyring, Fyne's settings (the remembered language)
	# and the default data directory start empty.
	export HOME=$work/home XDG_RUNTIME_DIR=$work/run
	unset XDG_CONFIG_HOME XDG_DATA_HOME XDG_CACHE_HOME XDG_STATE_HOME
	mkdir -p "$HOME" && mkdir -m 700 -p "$XDG_RUNTIME_DIR"

	local kr
	kr=$(printf 'workrun-screenshots' | gnome-keyring-daemon --unlock --components=secrets) ||
		fail "gnome-keyring-daemon --unlock --components=secrets did not start"
	while IFS= read -r kv; do
		[[ $kv == *=* ]] && export "${kv?}"
	done <<<"$kr"
	local owner=false
	for _ in $(seq 1 100); do
		if dbus-send --session --print-reply --dest=org.freedesktop.DBus /org/freedesktop/DBus \
			org.freedesktop.DBus.NameHasOwner string:org.freedesktop.secrets 2>/dev/null | grep -q 'boolean true'; then
			owner=true
			break
		fi
		sleep 0.1
	done
	$owner || fail "gnome-keyring-daemon did not take org.freedesktop.secrets within 10 s"

	# The locale a desktop session of that language gives its programs.
	local locale_env=(LANG=C.UTF-8 LANGUAGE=)
	[ "$lng" = zh ] && locale_env=(LANG=zh_CN.UTF-8 LANGUAGE=zh_CN)

	env "${locale_env[@]}" bin/workrun --data-dir "$work/data" </dev/null >"$work/app.log" 2>&1 &
	app=$!
	# shellcheck disable=SC2064 # the pid is known now
	trap "kill $app 2>/dev/null || true" EXIT
	win=
	for _ in $(seq 1 450); do
		win=$(xdotool search --onlyvisible --name '^Workrun( |$)' 2>/dev/null | head -n1 || true)
		[ -n "$win" ] && break
		kill -0 "$app" 2>/dev/null || fail "workrun exited before showing its window: $(tail -5 "$work/app.log")"
		sleep 0.2
	done
	[ -n "$win" ] || fail "no Workrun window within 90 s"
	sleep 3 # the window takes its size once shown
	# The window opens at 1280×800 where the screen is larger; the picture
	# shows it maximised, as a person with that screen would use it (Xvfb has
	# no window manager, so xdotool does what the maximise button does).
	xdotool windowmove "$win" 0 0 windowsize "$win" "$sw" "$sh"
	sleep 2
	local geo
	geo=$(xdotool getwindowgeometry --shell "$win")
	[[ $geo == *"WIDTH=$sw"*"HEIGHT=$sh"* ]] || fail "the window is not ${sw}x$sh: $geo"
	step 0-start

	# Help (the last menu of the bar), then the sample's item: where they
	# are depends on the language of the menu bar.
	local help_x item_y
	case $lng in
	en) help_x=287 ;;
	zh) help_x=260 ;;
	esac
	local name
	case $sample in
	remote) item_y=83 name='Remote Agent demo' ;;
	parallel) item_y=118 name='Parallel branches, one fails' ;;
	esac
	click "$help_x" 14
	step 1-help
	click "$((help_x + 80))" "$item_y" 2
	step 2-sample
	wait_title "^Workrun — $name\$" >/dev/null

	# Run: Ctrl+R opens the inputs dialog; Enter runs with the sample's values.
	xdotool key --window "$win" ctrl+r
	sleep 2
	step 3-inputs
	xdotool key --window "$win" Return
	local title
	# The title names the run's status in the window's language.
	title=$(wait_title ' — (succeeded|failed|stopped|interrupted|成功|失败|已停止|已中断)$')
	echo "screenshots: $shot_name: window title '$title'"
	case $sample in
	parallel) [[ $title == *"— failed" || $title == *"— 失败" ]] || fail "$shot_name: the parallel sample did not fail: '$title'" ;;
	remote) [[ $title == *"— succeeded" || $title == *"— 成功" ]] || fail "$shot_name: the Remote Agent sample did not succeed: '$title'" ;;
	esac
	sleep 2 # the run panel's last messages
	step 4-done

	# The run panel opens 180 pixels high under the canvas; drag the divider
	# above it up so the nodes and the messages have room, then fit the
	# workflow into the smaller canvas (View → Fit to view, Ctrl+0). The
	# divider's height depends on the status bar's (the language's font): it
	# is found by its black middle line.
	local div top=$((sh * 38 / 100))
	div=$(import -window root -crop "1x200+100+$((sh - 350))" txt:- |
		awk -F'[,: ]+' -v y0=$((sh - 350)) '/#000000/ { d = y0 + $2 } END { if (d) print d }')
	[ -n "$div" ] || fail "no divider above the run panel in the column x=100"
	xdotool mousemove --window "$win" $((sw / 2)) "$div" sleep 0.2 mousedown 1
	for i in 1 2 3 4 5 6 7 8; do
		xdotool mousemove --window "$win" $((sw / 2)) $((div + (top - div) * i / 8)) sleep 0.05
	done
	xdotool sleep 0.2 mouseup 1
	sleep 1

	# On a screen narrower than 1280 the canvas is too narrow for the
	# workflow's labels: hide the workflow list and the inspector (View →
	# Ctrl+L, Ctrl+I), as the README says the editor allows.
	if [ "$sw" -lt 1280 ]; then
		xdotool key --window "$win" ctrl+l
		sleep 0.5
		xdotool key --window "$win" ctrl+i
		sleep 1
	fi
	xdotool key --window "$win" ctrl+0
	sleep 1
	step 5-panel

	# The detail's split (a light bar in the middle of the detail, found
	# below the selected node's heading) gives the node's inputs and outputs
	# 45%: on the small screen they need 30 pixels more, on the large one
	# the messages can have 40 pixels of what is left empty above them.
	local hx=$((sw * 67 / 100)) hy dy=-8
	[ "$sw" -lt 1280 ] && dy=5
	hy=$(import -window root -crop "1x$((sh - 60 - top - 170))+$hx+$((top + 170))" txt:- |
		awk -F'[,: ]+' -v y0=$((top + 170)) '/#F3F3F3/ && !h { h = y0 + $2 } END { if (h) print h }')
	[ -n "$hy" ] || fail "no split handle in the run's detail in the column x=$hx"
	xdotool mousemove --window "$win" "$hx" "$hy" sleep 0.2 mousedown 1
	for i in 1 2 3 4 5 6; do
		xdotool mousemove --window "$win" "$hx" $((hy + dy * i)) sleep 0.05
	done
	xdotool sleep 0.2 mouseup 1
	sleep 1
	step 6-detail

	# Select the Remote Agent in the run panel's node list (its second row,
	# under the run's failure line when it failed): the detail shows its
	# answer and, in the parallel sample, the lines of its cancel.
	local row=140
	[ "$sample" = parallel ] && row=180
	click 200 $((top + row)) 2
	step 7-agent

	import -window root "png:$work/shot.png" || fail "import -window root"
	cp "$work/shot.png" "$out"
	kill -TERM "$app"
	local status=0
	wait "$app" || status=$?
	[ "$status" -eq 0 ] || fail "workrun exited with status $status after SIGTERM: $(tail -5 "$work/app.log")"
	echo "screenshots: wrote $out"
}

if [ "${1:-}" = __shoot ]; then
	shift
	shoot "$@"
	exit
fi

scripts/deps.sh test
${MAKE:-make} --no-print-directory build

tmp=$(mktemp -d "${TMPDIR:-/tmp}/workrun-shots.XXXXXX")
xvfb_pid=
cleanup() {
	if [ -n "$xvfb_pid" ]; then
		kill "$xvfb_pid" 2>/dev/null || true
		wait "$xvfb_pid" 2>/dev/null || true
	fi
	rm -rf "$tmp"
}
trap cleanup EXIT

# take LANG WIDTH HEIGHT SAMPLE OUT: one picture on its own X server.
take() {
	local lng=$1 w=$2 h=$3 sample=$4 out=$5
	local work
	work=$(mktemp -d "$tmp/shot.XXXXXX")
	Xvfb -displayfd 3 -screen 0 "${w}x${h}x24" -nolisten tcp 3>"$work/display" 2>"$work/xvfb.log" &
	xvfb_pid=$!
	for _ in $(seq 1 100); do
		[ -s "$work/display" ] && break
		sleep 0.1
	done
	[ -s "$work/display" ] || fail "Xvfb did not start: $(cat "$work/xvfb.log")"
	DISPLAY=":$(tr -d '[:space:]' <"$work/display")" dbus-run-session -- "$0" __shoot "$work" "$lng" "$w" "$h" "$sample" "$root/$out"
	kill "$xvfb_pid" 2>/dev/null || true
	wait "$xvfb_pid" 2>/dev/null || true
	xvfb_pid=
}

only=${SCREENSHOT_ONLY:-}
want() { [ -z "$only" ] || [[ $1 == *"$only"* ]]; }

want parallel-en.png && take en 1440 900 parallel assets/screenshots/parallel-en.png
want parallel-zh.png && take zh 1440 900 parallel assets/screenshots/parallel-zh.png
want parallel-en-1024x700 && take en 1024 700 parallel assets/screenshots/parallel-en-1024x700.png
want parallel-zh-1024x700 && take zh 1024 700 parallel assets/screenshots/parallel-zh-1024x700.png
want screenshot-run && take en 1440 900 remote docs/screenshot-run.png
echo "screenshots: done"
