# Workrun. The two commands a newcomer needs: `make run` and `make test`.
# Both install the missing Debian packages first (scripts/deps.sh).

VERSION ?= 0.1.0-dev$(shell git rev-parse --short HEAD 2>/dev/null | sed 's/^/+/')
LDFLAGS := -X main.version=$(VERSION)
GO ?= go

.PHONY: run build test bench deps test-deps screenshot clean

## run: install missing packages, build, and open the Workrun window
run: build
	@if [ -z "$$DISPLAY$$WAYLAND_DISPLAY" ]; then \
		echo "make run: no display (DISPLAY is unset); on a headless machine try: xvfb-run -a bin/workrun" >&2; \
		exit 1; \
	fi
	bin/workrun

## build: build bin/workrun (not ./workrun: that directory is the engine package)
build: deps
	$(GO) build -ldflags '$(LDFLAGS)' -o bin/workrun .

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

## test-deps: install the system packages the tests need
test-deps:
	scripts/deps.sh test

## screenshot: refresh docs/screenshot.png and docs/screenshot-run.png from the real-window tests
screenshot: test-deps
	WORKRUN_SAVE_SCREENSHOT=1 xvfb-run -a -s '-screen 0 1280x800x24' \
		$(GO) test -count=1 -v -run '^(TestGUISmoke|TestGUIRunsSampleAgainstDemoAgent)$$' .

clean:
	rm -rf bin
