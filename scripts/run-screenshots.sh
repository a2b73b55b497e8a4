#!/usr/bin/env bash
# Screenshots of the parallel sample's run (a branch fails while a Remote
# Agent works; the agent's task gets its cancel) in English and Simplified
# Chinese at 1024×700 and 1440×900, from the real binary on Xvfb with only the
# packages scripts/deps.sh installs. Output: DIR/parallel-{en,zh}-WxH.png.
#
#   scripts/run-screenshots.sh BINARY DIR
set -euo pipefail
bin=$1 out=$2
mkdir -p "$out"
shot() { # lang size
	local lang=$1 size=$2 w=${2%x*} h=${2#*x} home disp
	home=$(mktemp -d)
	disp=:$((90 + RANDOM % 100))
	Xvfb "$disp" -screen 0 "${size}x24" -nolisten tcp &
	local xvfb=$!
	sleep 1
	local env_lang=C.UTF-8
	[ "$lang" = zh ] && env_lang=zh_CN.UTF-8
	DISPLAY=$disp HOME=$home LANG=$env_lang LANGUAGE= LC_ALL= WORKRUN_DATA_DIR="$home/data" \
		WORKRUN_AUTORUN=parallel "$bin" >"$home/log" 2>&1 &
	local app=$!
	local wid=""
	for _ in $(seq 50); do
		wid=$(DISPLAY=$disp xdotool search --name '^Workrun' 2>/dev/null | head -1) && [ -n "$wid" ] && break
		sleep 0.2
	done
	sleep 1
	DISPLAY=$disp xdotool windowmove "$wid" 0 0 windowsize "$wid" "$w" "$h"
	# The failing branch sleeps 2 s, then the agent's task gets its cancel.
	for _ in $(seq 60); do
		DISPLAY=$disp xdotool getwindowname "$wid" | grep -qE 'failed|失败' && break
		sleep 0.5
	done
	sleep 2
	# Show the Remote Agent's messages (the cancel): its row is the second
	# in the run panel's node list, here (measured on these screenshots).
	local rowy
	case $lang-$size in
	en-1024x700) rowy=524 ;;
	zh-1024x700) rowy=518 ;;
	en-1440x900) rowy=623 ;;
	*) rowy=617 ;;
	esac
	DISPLAY=$disp xdotool mousemove --sync 200 "$rowy" click 1
	sleep 1
	DISPLAY=$disp import -window root "$out/parallel-$lang-$size.png"
	kill -TERM "$app"; wait "$app" || true
	kill "$xvfb"; wait "$xvfb" 2>/dev/null || true
	rm -rf "$home"
	echo "$out/parallel-$lang-$size.png"
}
for size in 1024x700 1440x900; do
	for lang in en zh; do
		shot "$lang" "$size"
	done
done
