#!/usr/bin/env bash
# make dist: the release files in dist/, and the check that they are what
# they claim to be.
#
#   scripts/dist.sh build   build dist/ (Linux tarball, Windows .exe, SHA256SUMS)
#   scripts/dist.sh check   check what is in dist/ (make test runs this)
#   scripts/dist.sh         both
#
# The build copies the source into a scratch directory and runs `fyne package`
# there, because fyne package writes into the source directory (it bumps the
# build number in FyneApp.toml and drops fyne.syso next to main.go).
# VERSION comes from the Makefile (scripts/version.sh when run by hand).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

# Scratch directories, removed on exit (after stopping the wineserver of
# the check's Wine prefix, if one was started).
scratch=()
wine_prefix=
cleanup() {
	if [ -n "$wine_prefix" ] && [ -d "$wine_prefix" ]; then
		WINEPREFIX=$wine_prefix wineserver -k 2>/dev/null || true
	fi
	rm -rf "${scratch[@]}"
}
trap cleanup EXIT
root=$PWD

FYNE_TOOLS_VERSION=v1.7.4
tools=$root/bin/tools
fyne=$tools/fyne
VERSION=${VERSION:-$(scripts/version.sh)}
numeric=$(scripts/version.sh numeric)
build_no=${BUILD_NO:-$(scripts/version.sh build)}
linux_tar=workrun-${VERSION}-linux-amd64.tar.xz
windows_exe=workrun-${VERSION}-windows-amd64.exe
mingw_cc=x86_64-w64-mingw32-gcc
# The first line of the generated licence file (scripts/licenses).
licenses_header="Workrun includes the following third-party software."

# fyne_tool installs the fyne command this build uses into bin/tools, once.
fyne_tool() {
	if [ -x "$fyne" ] && [ "$(cat "$tools/fyne.version" 2>/dev/null)" = "$FYNE_TOOLS_VERSION" ]; then
		return
	fi
	echo "dist: go install fyne.io/tools/cmd/fyne@$FYNE_TOOLS_VERSION into bin/tools"
	mkdir -p "$tools"
	GOBIN=$tools GOFLAGS= go install "fyne.io/tools/cmd/fyne@$FYNE_TOOLS_VERSION"
	echo "$FYNE_TOOLS_VERSION" >"$tools/fyne.version"
}

build() {
	fyne_tool
	if ! command -v "$mingw_cc" >/dev/null; then
		echo "dist: $mingw_cc is missing (scripts/deps.sh dist installs gcc-mingw-w64-x86-64)" >&2
		return 1
	fi
	local stage
	stage=$(mktemp -d "${TMPDIR:-/tmp}/workrun-dist.XXXXXX")
	scratch+=("$stage")
	# The files git knows about or would add: the working tree as it is,
	# without build output and node_modules.
	mkdir -p "$stage/src"
	git ls-files -z --cached --others --exclude-standard |
		while IFS= read -r -d '' f; do [ -e "$f" ] && printf '%s\0' "$f"; done |
		tar --null -T - -cf - | tar -xf - -C "$stage/src"

	# The licence texts of both targets' dependencies, embedded in both.
	(cd "$stage/src" && go run ./scripts/licenses -o assets/licenses/THIRD_PARTY_LICENSES.txt)

	# fyne package adds -s -w to these and -H=windowsgui for Windows.
	local goflags="-ldflags=-X=main.version=${VERSION}"
	local pkg=(package --release --app-version "$numeric" --app-build "$build_no")

	echo "dist: fyne package --target linux (version $VERSION)"
	local t0=$SECONDS
	# The default executable path, ./workrun, is the engine package's directory.
	mkdir -p "$stage/out"
	(cd "$stage/src" && GOFLAGS=$goflags "$fyne" "${pkg[@]}" --target linux --executable "$stage/out/workrun")
	echo "dist: linux package built in $((SECONDS - t0)) s"

	echo "dist: fyne package --target windows with $mingw_cc"
	t0=$SECONDS
	# Given no executable, fyne package builds the .exe twice (before and
	# after adding the icon and version resource) and the second build loses
	# the -ldflags taken from GOFLAGS, hence the version. An existing file
	# named as the executable skips the first build.
	: >"$stage/src/workrun.exe"
	(cd "$stage/src" && GOFLAGS=$goflags CGO_ENABLED=1 GOOS=windows GOARCH=amd64 CC=$mingw_cc \
		"$fyne" "${pkg[@]}" --target windows --executable workrun.exe)
	echo "dist: windows executable built in $((SECONDS - t0)) s"

	rm -rf dist
	mkdir -p dist
	mv "$stage/src/Workrun.tar.xz" "dist/$linux_tar"
	mv "$stage/src/Workrun.exe" "dist/$windows_exe"
	(cd dist && sha256sum "$linux_tar" "$windows_exe" >SHA256SUMS)
	echo "dist: built"
	ls -l dist
}

# fail prints why the check failed and stops.
fail() {
	echo "dist check: FAIL: $*" >&2
	exit 1
}

check() {
	[ -f "dist/$linux_tar" ] || fail "dist/$linux_tar is missing (run make dist with VERSION=$VERSION)"
	[ -f "dist/$windows_exe" ] || fail "dist/$windows_exe is missing"
	(cd dist && sha256sum --quiet -c SHA256SUMS) || fail "SHA256SUMS does not match the files"
	echo "dist check: SHA256SUMS matches"
	[ "$(wc -l <dist/SHA256SUMS)" -eq 2 ] || fail "SHA256SUMS should list exactly the two files"

	local work
	work=$(mktemp -d "${TMPDIR:-/tmp}/workrun-distcheck.XXXXXX")
	scratch+=("$work")

	# Linux: the tarball holds the binary, the icon and a valid .desktop entry
	# that starts the binary and names the icon.
	tar -xJf "dist/$linux_tar" -C "$work"
	local top=$work/workrun/usr/local
	local exe=$top/bin/workrun desktop=$top/share/applications/app.workrun.desktop.desktop
	local icon=$top/share/pixmaps/app.workrun.desktop.png
	[ -x "$exe" ] || fail "the tarball has no executable usr/local/bin/workrun"
	[ -f "$icon" ] || fail "the tarball has no icon usr/local/share/pixmaps/app.workrun.desktop.png"
	[ -f "$desktop" ] || fail "the tarball has no .desktop entry"
	[ -f "$work/workrun/Makefile" ] || fail "the tarball has no Makefile (make user-install / sudo make install)"
	cmp -s "$icon" assets/icon.png || fail "the tarball's icon is not assets/icon.png"
	desktop-file-validate "$desktop" || fail "desktop-file-validate rejects the tarball's .desktop entry"
	grep -qx 'Exec=workrun' "$desktop" || fail ".desktop entry: Exec is not workrun"
	grep -qx 'Icon=app.workrun.desktop' "$desktop" || fail ".desktop entry: Icon is not app.workrun.desktop"
	grep -qx 'Name=Workrun' "$desktop" || fail ".desktop entry: Name is not Workrun"
	echo "dist check: linux tarball has bin/workrun, the icon and a .desktop entry that desktop-file-validate accepts"

	local got
	got=$("$exe" version) || fail "workrun version failed"
	[[ $got == *"$VERSION"* ]] || fail "workrun version says '$got', want $VERSION"
	got=$("$exe" --data-dir "$work/data-linux" run examples/hello.json --input name=dist) ||
		fail "workrun run examples/hello.json failed: $got"
	[[ $got == *"Hello, dist!"* ]] || fail "workrun run examples/hello.json did not say Hello, dist!: $got"
	grep -aq "$licenses_header" "$exe" || fail "the linux binary has no licence texts embedded"
	echo "dist check: linux binary: version $VERSION, runs examples/hello.json, licence texts embedded"

	# Windows: resources, then the headless commands under Wine.
	go run ./scripts/pecheck "dist/$windows_exe" "$numeric.$build_no" || fail "the Windows executable lacks its resources"
	grep -aq "$licenses_header" "dist/$windows_exe" || fail "the Windows executable has no licence texts embedded"
	wine_check "$work" || return 1
}

# wine_check runs the Windows executable's headless commands under Wine in a
# throw-away Wine prefix.
wine_check() {
	local work=$1
	local wine
	wine=$(command -v wine64 || command -v wine) || fail "wine is missing (scripts/deps.sh dist installs it)"
	wine_prefix=$work/wineprefix
	export WINEPREFIX=$wine_prefix WINEDEBUG=-all WINEDLLOVERRIDES="mscoree,mshtml="
	local t0=$SECONDS
	# A new Wine prefix (tens of seconds).
	timeout 300 "$wine" wineboot --init >"$work/wineboot.log" 2>&1 ||
		fail "wineboot --init failed: $(tail -5 "$work/wineboot.log")"
	# Go 1.24+ needs bcryptprimitives.dll, which Wine 8 does not have: a
	# stand-in goes into this throw-away prefix's system32 (never shipped).
	"$mingw_cc" -shared -O2 -o "$WINEPREFIX/drive_c/windows/system32/bcryptprimitives.dll" \
		scripts/wine/bcryptprimitives.c -ladvapi32 || fail "cannot build the bcryptprimitives.dll stand-in"
	echo "dist check: Wine prefix ready in $((SECONDS - t0)) s ($("$wine" --version))"
	cp "dist/$windows_exe" "$work/workrun.exe"
	cp examples/hello.json "$work/hello.json"
	local got
	got=$(cd "$work" && timeout 300 "$wine" workrun.exe version 2>"$work/wine.err") ||
		fail "wine workrun.exe version failed: $(tail -5 "$work/wine.err")"
	got=${got//$'\r'/}
	[[ $got == *"$VERSION"* ]] || fail "wine workrun.exe version says '$got', want $VERSION"
	echo "dist check: wine workrun.exe version: $got"
	got=$(cd "$work" && timeout 120 "$wine" workrun.exe run hello.json --input name=wine 2>"$work/wine.err") ||
		fail "wine workrun.exe run hello.json failed: $got $(tail -5 "$work/wine.err")"
	got=${got//$'\r'/}
	[[ $got == *"Hello, wine!"* ]] || fail "wine workrun.exe run hello.json did not say Hello, wine!: $got"
	# No --data-dir: the default must be %AppData%\workrun.
	local appdata
	appdata=$(find "$WINEPREFIX/drive_c/users" -maxdepth 4 -path '*/AppData/Roaming/workrun' -type d | head -n1)
	[ -n "$appdata" ] && [ -f "$appdata/workrun.db" ] ||
		fail "wine: no workrun.db in %AppData%\\workrun after a run"
	echo "dist check: wine workrun.exe run hello.json: succeeded, data in %AppData%\\workrun (${appdata#"$WINEPREFIX/"})"
}

case "${1:-all}" in
build) build ;;
check) check ;;
all)
	build
	check
	;;
*)
	echo "usage: $0 [build|check|all]" >&2
	exit 2
	;;
esac
