#!/usr/bin/env bash
# cite.sh rewrites comment citations of documents that are not in the
# repository ("SPEC R9", "SPEC W5", "STYLE §6", "(issue 7)") into citations
# of the repository's own docs (docs/remote-agent.md R9, docs/product.md W5,
# docs/conventions.md §6, …), using the rules in docs/.citations.tsv. It
# prints every line it changes, then every citation it left alone.
#
# Usage: scripts/cite.sh [-n] [--bare] [FILE…]
#   -n      show what would change; write nothing
#   --bare  also name the document of bare rule numbers ("(R12)" becomes
#           "(docs/remote-agent.md R12)"), with docs/.citations-bare.tsv
#   FILE…  the files to rewrite (default: every *.go file git tracks)
# Exit status: 0, also when citations are left over (they are listed).
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."

dry=false
maps=(docs/.citations.tsv)
while [ $# -gt 0 ]; do
	case $1 in
	-n) dry=true ;;
	--bare) maps+=(docs/.citations-bare.tsv) ;;
	*) break ;;
	esac
	shift
done
if [ $# -gt 0 ]; then
	files=("$@")
else
	mapfile -t files < <(git ls-files '*.go')
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

: >"$work/rules.sed"
# One sed command per rule; \001 as the delimiter, since the rules use / and |.
d=$'\001'
while IFS=$'\t' read -r pat rep; do
	[[ -z $pat || $pat == \#* ]] && continue
	printf 's%s%s%s%s%sg\n' "$d" "$pat" "$d" "$rep" "$d" >>"$work/rules.sed"
done < <(cat "${maps[@]}")

# -z reads each file as one record, so a rule may span a line break. LC_ALL=C
# matches bytes: the rules spell multi-byte characters (§, –, ≤) literally.
changed=0
: >"$work/left"
for f in "${files[@]}"; do
	LC_ALL=C sed -z -E -f "$work/rules.sed" "$f" >"$work/out"
	# What the rules do not cover, to review by hand.
	grep -nE '\bSPEC\b|\bSTYLE §|[Ii]ssue #?[0-9]+' "$work/out" | sed "s|^|$f:|" >>"$work/left" || true
	if cmp -s "$f" "$work/out"; then
		continue
	fi
	changed=$((changed + 1))
	diff -U0 --label "a/$f" --label "b/$f" "$f" "$work/out" || true
	if ! $dry; then
		cat "$work/out" >"$f" # keeps the file's mode
	fi
done

if $dry; then
	echo "cite.sh: $changed file(s) would change (nothing written)"
else
	echo "cite.sh: $changed file(s) changed"
fi
if [ -s "$work/left" ]; then
	echo "cite.sh: citations left over ($(wc -l <"$work/left")):"
	cat "$work/left"
fi
