# Workrun. The two commands a newcomer needs: `make run` and `make test`.
# Both install the missing Debian packages first (scripts/deps.sh).

# The version: the git tag (vX.Y.Z) or commit, see scripts/version.sh. It is
# the one `workrun version`, the About dialog and the dist/ file names show.
VERSION ?= $(shell scripts/version.sh)
LDFLAGS := -X main.version=$(VERSION)
GO ?= go
PREFIX ?= $(HOME)/.local
LICENSES := assets/licenses/THIRD_PARTY_LICENSES.txt

.PHONY: run build licenses test bench deps test-deps dist-deps dist install uninstall screenshot clean

## run: install missing packages, build, and open the Workrun window
run: build
	@if [ -z "$$DISPLAY$$WAYLAND_DISPLAY" ]; then \
		echo "make run: no display (DISPLAY is unset); on a headless machine try: xvfb-run -a bin/workrun" >&2; \
		exit 1; \
	fi
	bin/workrun

## build: build bin/workrun (not ./workrun: that directory is the engine package)
build: deps licenses
	$(GO) build -ldflags '$(LDFLAGS)' -o bin/workrun .

## licenses: generate the licence texts of the bundled dependencies from the
##           module graph (embedded in the binary, shown by Help → About)
licenses:
	$(GO) run ./scripts/licenses -o $(LICENSES)

## dist: release files in dist/: the Linux tarball (fyne package), the Windows
##       .exe (mingw-w64 cross build) and SHA256SUMS, then check them
dist: dist-deps
	VERSION='$(VERSION)' scripts/dist.sh

## install: install binary, icons and menu entry into PREFIX (default ~/.local)
install: build
	PREFIX='$(PREFIX)' BIN=bin/workrun scripts/install.sh install

## uninstall: remove exactly what make install put into PREFIX
uninstall:
	PREFIX='$(PREFIX)' scripts/install.sh uninstall

## test: install test dependencies, then gofmt check, go vet and go test -race
##       with Xvfb and a real Secret Service (scripts/test.sh)
test:
	scripts/test.sh

## bench: run the benchmarks (figures go to docs/BENCHMARKS.md)
bench: deps
	$(GO) test -run '^$$' -bench . -benchmem ./...

## deps: install the system packages the build needs
deps:
	scripts/deps.sh build

## dist-deps: install the system packages make dist needs (mingw-w64, Wine, desktop-file-utils)
dist-deps:
	scripts/deps.sh dist

## test-deps: install the system packages the tests need
test-deps:
	scripts/deps.sh test

## screenshot: refresh the README's pictures: docs/screenshot.png and
##             docs/screenshot-{1024x700,1440x900}.png from the real-window
##             tests, then the sample runs (docs/screenshot-run.png and
##             assets/screenshots/parallel-*.png, English and Chinese, at
##             1440x900 and 1024x700) and the states of issue 40
##             (assets/screenshots/states/) with scripts/screenshots.sh
screenshot: test-deps
	WORKRUN_SAVE_SCREENSHOT=1 xvfb-run -a -s '-screen 0 1280x800x24' \
		$(GO) test -count=1 -v -run '^(TestGUISmoke|TestGUIWindowFitsScreen)$$' .
	scripts/screenshots.sh

clean:
	rm -rf bin dist $(LICENSES)
