# The README's two commands are `make run` and `make test`; everything else is a helper.
SHELL := /bin/bash
JOBS ?= $(shell nproc)
ARGS ?=

.PHONY: deps build run test test-release test-asan bench clean

deps:
	@scripts/deps.sh

build: deps
	@cmake --preset release >/dev/null
	@cmake --build --preset release -j $(JOBS)

# Builds (release) and runs the server with config/server.json; extra flags via ARGS=...
run: build
	./build/release/server/elgrande-server --config config/server.json $(ARGS)

# Installs what is missing, builds, and runs the whole suite twice: optimised, then
# under AddressSanitizer + UndefinedBehaviorSanitizer.
test: deps test-release test-asan

test-release:
	@cmake --preset release >/dev/null
	@cmake --build --preset release -j $(JOBS)
	ctest --preset release -j $(JOBS)

test-asan:
	@cmake --preset asan >/dev/null
	@cmake --build --preset asan -j $(JOBS)
	ctest --preset asan -j $(JOBS)

bench: build
	./build/release/engine/elgrande-bench

clean:
	rm -rf build
