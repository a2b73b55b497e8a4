#!/usr/bin/env bash
# Installs the system packages Workrun needs, only those missing.
#
#   scripts/deps.sh build   the cgo/X11 set the Fyne build needs and a CJK font
#                           (make build, make run)
#   scripts/deps.sh dist    the build set plus the mingw-w64 cross compiler, Wine
#                           and desktop-file-utils (make dist)
#   scripts/deps.sh test    the build and dist sets plus Xvfb, xdotool, ImageMagick,
#                           tesseract OCR, D-Bus, gnome-keyring and Node (make test)
#
# As root it runs apt-get; otherwise it uses sudo when there is one; otherwise it
# prints the one apt-get line to run and exits 1. When everything is present it
# does nothing, so repeated runs are fast.
set -euo pipefail

build_pkgs=(gcc libc6-dev pkg-config libgl1-mesa-dev libx11-dev libxcursor-dev
	libxrandr-dev libxinerama-dev libxi-dev libxxf86vm-dev
	# A system CJK font (1.6 MB) that fontconfig names for Chinese: the Chinese
	# window draws with it; without one it falls back to the subset embedded in
	# package assets (scripts/cjk-font.sh).
	fontconfig fonts-wqy-microhei)
# dbus-x11 is deliberately absent: the tests get their bus from dbus-run-session.
test_pkgs=(xvfb xauth xdotool imagemagick dbus gnome-keyring strace curl
	# OCR: the real-window tests find labels on the screen by their text
	# (guitext_test.go), in English and Simplified Chinese.
	tesseract-ocr tesseract-ocr-eng tesseract-ocr-chi-sim)
# make dist: the Windows cross compiler, Wine to run the .exe's headless
# commands, desktop-file-validate, xz for the fyne package tarball, file(1)
# for the install check.
dist_pkgs=(gcc-mingw-w64-x86-64 wine wine64 desktop-file-utils xz-utils file)

want=("${build_pkgs[@]}")
case "${1:-build}" in
build) ;;
dist) want+=("${dist_pkgs[@]}") ;;
test)
	want+=("${test_pkgs[@]}" "${dist_pkgs[@]}")
	# Node runs the JavaScript A2A interop peer; any node already on PATH will do.
	if ! command -v node >/dev/null 2>&1; then
		want+=(nodejs npm)
	elif ! command -v npm >/dev/null 2>&1; then
		want+=(npm)
	fi
	;;
*)
	echo "usage: $0 build|dist|test" >&2
	exit 2
	;;
esac

missing=()
for p in "${want[@]}"; do
	if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed'; then
		missing+=("$p")
	fi
done

if [ "${#missing[@]}" -eq 0 ]; then
	echo "deps: all ${#want[@]} system packages present"
else
	line="apt-get update && apt-get install -y --no-install-recommends ${missing[*]}"
	if [ "$(id -u)" -eq 0 ]; then
		sudo=()
	elif command -v sudo >/dev/null 2>&1; then
		sudo=(sudo)
	else
		echo "deps: missing system packages: ${missing[*]}" >&2
		echo "deps: run this as root, then run make again:" >&2
		echo "  $line" >&2
		exit 1
	fi
	echo "deps: installing ${missing[*]}"
	export DEBIAN_FRONTEND=noninteractive
	"${sudo[@]}" apt-get update -qq
	"${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

if ! command -v go >/dev/null 2>&1; then
	echo "deps: the go command is missing: install Go 1.26 or newer from https://go.dev/dl/ and put it on PATH" >&2
	exit 1
fi
