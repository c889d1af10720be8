# The two commands of the README. Everything else lives in scripts/.
.PHONY: serve test build bench fuzz lab

## make serve: install what is missing, build the playground, serve it on http://127.0.0.1:8080
serve:
	@scripts/setup.sh build
	@scripts/serve.sh

## make test: install what is missing (Chromium included) and run every test in the project
test:
	@scripts/setup.sh test
	@scripts/test.sh

## make lab: the real-Kafka stage alone: vectors from the 4.3.1 jars, a real 3-broker cluster, the lab's runs, real | simulated | article
lab:
	@scripts/setup.sh lab
	@scripts/lab.sh

## make build: the release build of the playground into dist/
build:
	@scripts/setup.sh build
	@. scripts/env.sh && trunk build --release --offline

## make bench: the benchmarks behind BENCHMARKS.md (not part of make test)
bench:
	@scripts/bench.sh

## make fuzz: every cargo-fuzz target for 10 minutes each, two at a time (needs the nightly toolchain)
fuzz:
	@scripts/fuzz.sh 600 2
