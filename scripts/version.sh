#!/usr/bin/env bash
# Prints Workrun's version, the one that `workrun version`, the About dialog and
# the names of the files in dist/ show. It comes from git:
#
#   on a tag vX.Y.Z                     X.Y.Z
#   after a tag vX.Y.Z                  X.Y.Z-N-gSHA   (git describe)
#   no tag yet                          V-dev+SHA      (V from FyneApp.toml)
#   uncommitted changes                 … with "-dirty" appended
#   no git at all (a source tarball)    V-dev
#
#   scripts/version.sh          the version string
#   scripts/version.sh numeric  X.Y.Z for the Windows version resource
#   scripts/version.sh build    the build number (commits so far) for it
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

base=$(sed -n 's/^[[:space:]]*Version[[:space:]]*=[[:space:]]*"\(.*\)"/\1/p' FyneApp.toml | head -n1)
base=${base:-0.0.0}
tag=
if git rev-parse --git-dir >/dev/null 2>&1; then
	tag=$(git describe --tags --match 'v[0-9]*' --abbrev=0 2>/dev/null || true)
fi

case "${1:-}" in
numeric)
	v=${tag#v}
	v=${v:-$base}
	# Only the X.Y.Z part: a Windows file version is four numbers.
	echo "${v%%[-+]*}"
	exit
	;;
build)
	git rev-list --count HEAD 2>/dev/null || echo 1
	exit
	;;
esac

if ! git rev-parse --git-dir >/dev/null 2>&1; then
	echo "${base}-dev"
elif [ -n "$tag" ]; then
	git describe --tags --match 'v[0-9]*' --dirty | sed 's/^v//'
else
	sha=$(git rev-parse --short HEAD)
	dirty=
	git diff --quiet HEAD -- 2>/dev/null || dirty=-dirty
	echo "${base}-dev+${sha}${dirty}"
fi
