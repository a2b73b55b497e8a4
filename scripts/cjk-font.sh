#!/usr/bin/env bash
# Regenerates assets/fonts/cjk-subset.ttf: WenQuanYi Micro Hei (Apache-2.0)
# cut down to the 3,755 common characters of GB 2312 level 1 plus every CJK
# character and CJK punctuation mark written in this repository's .go, .json
# and .md files. The window uses it when the system has no CJK font, so the
# Chinese interface never shows empty boxes (see ui/theme.go).
#
# Needs fonts-wqy-microhei and python3-fonttools (apt-get install -y
# fonts-wqy-microhei python3-fonttools). Run it after adding Chinese text that
# the test TestCJKSubsetCoversTheCatalogue reports as missing.
set -euo pipefail
cd "$(dirname "$0")/.."
src=/usr/share/fonts/truetype/wqy/wqy-microhei.ttc
[ -r "$src" ] || { echo "cjk-font: $src missing: apt-get install -y fonts-wqy-microhei" >&2; exit 1; }
py=/usr/bin/python3
"$py" -c 'import fontTools' 2>/dev/null || { echo "cjk-font: apt-get install -y python3-fonttools" >&2; exit 1; }
chars=$(mktemp)
trap 'rm -f "$chars"' EXIT
"$py" - "$chars" <<'PY'
import os, sys
out = sys.argv[1]
keep = set()
def cjk(o):
    # Only CJK: Latin punctuation (·, —, …, quotes) stays with Fyne's own
    # font, which the subset falls through to.
    return (0x2E80 <= o <= 0x9FFF or 0xF900 <= o <= 0xFAFF or 0xFF00 <= o <= 0xFFEF
            or 0x3000 <= o <= 0x303F)
for d, dirs, files in os.walk('.'):
    dirs[:] = [x for x in dirs if x not in ('.git', 'node_modules')]
    for f in files:
        if f.endswith(('.go', '.json', '.md')):
            try:
                s = open(os.path.join(d, f), encoding='utf-8').read()
            except (UnicodeDecodeError, OSError):
                continue
            keep.update(c for c in s if cjk(ord(c)))
for hi in range(0xB0, 0xD8):  # GB 2312 level 1
    for lo in range(0xA1, 0xFF):
        try:
            keep.add(bytes([hi, lo]).decode('gb2312'))
        except UnicodeDecodeError:
            pass
open(out, 'w', encoding='utf-8').write(''.join(sorted(keep)))
print(f"cjk-font: {len(keep)} characters", file=sys.stderr)
PY
"$py" -m fontTools.subset "$src" --font-number=0 --text-file="$chars" \
	--output-file=assets/fonts/cjk-subset.ttf 2> >(grep -v 'FFTM NOT subset' >&2)
ls -l assets/fonts/cjk-subset.ttf
