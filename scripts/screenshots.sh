#!/usr/bin/env bash
# make screenshot: the README's pictures of sample runs, taken from the real
# binary as a person would take them, in English and Chinese at 1440×900 and
# 1024×700 — TestScreenshots (screenshots_test.go, build tag "screenshots",
# so make test leaves it out) says how. It finds the menu items it clicks by
# their text on the screen (tesseract OCR, guitext_test.go), so new menu
# items or a translation move nothing.
#
#   assets/screenshots/parallel-{en,zh}.png            1440×900
#   assets/screenshots/parallel-{en,zh}-1024x700.png   1024×700
#   docs/screenshot-run.png                            1440×900, Remote Agent sample
#
# and the pictures of each state issue 40 is proven by (TestScreenshotStates,
# screenshots_states_test.go: one app start per language and size walks them):
#
#   assets/screenshots/states/<state>-{en,zh}-{1024x700,1440x900}.png
#
# Only the packages scripts/deps.sh installs are used. SCREENSHOT_ONLY=TEXT
# takes only the pictures whose file name contains TEXT (for the states: the
# tours whose tag, en-1024x700 …, contains it); SCREENSHOT_STEPS=DIR
# keeps a picture of every step in DIR (for finding where a click went).
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."

scripts/deps.sh test
# Each picture has its own Xvfb screen of its size; the tests only need a
# DISPLAY to start from.
xvfb-run -a -s '-screen 0 1280x800x24' go test -tags screenshots -count=1 -timeout 60m -v -run '^(TestScreenshots|TestScreenshotStates)$' .
echo "screenshots: done"
