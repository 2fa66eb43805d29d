# Shortcuts for developers; the README's two commands are scripts/run.sh and scripts/test.sh.
.PHONY: deps run test bench load clean

deps:
	@scripts/deps.sh

run:
	scripts/run.sh $(ARGS)

test:
	scripts/test.sh

bench: deps
	cmake --preset release >/dev/null
	cmake --build --preset release --target elgrande-bench
	./build/release/engine/elgrande-bench

load: deps
	scripts/load.sh $(ARGS)

clean:
	rm -rf build
