# execlag - every entry point.  CC, CFLAGS, LDFLAGS, PREFIX, DESTDIR overridable;
# SANITIZE=1 builds with ASan and UBSan (make test SANITIZE=1); make fuzz
# [FUZZ_SECONDS=60] fuzzes the readers.

VERSION    = 0.1.0
PREFIX    ?= /usr/local
DESTDIR   ?=
PKG_CONFIG ?= pkg-config

CC        ?= cc
CFLAGS    ?= -O2 -g
WARN       = -std=c11 -Wall -Wextra -Wno-unused-parameter
CPPFLAGS_X = -DEXECLAG_VERSION='"$(VERSION)"'
LDFLAGS   ?=
PTHREAD    = -pthread

# Open files allowed (ulimit -n): below FD_MIN a linker fails ("out of
# file descriptors"), and dash, Linux's /bin/sh, cannot even read a script
# under 11 ("sh: 0: 3: Invalid argument"), so say so before any recipe.
# Read straight into make, with the system's name (UNAME_S, below), by one
# shell: a command substitution would need a pipe more, and every make
# (the entry points' sub-make too) pays for each shell it starts.  The
# limit is compared by make itself: below FD_MIN is one of the words of
# FD_BELOW_MIN (ulimit -n prints a whole number or "unlimited").
override FD_MIN = 64
override FD_BELOW_MIN = 0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31 \
                        32 33 34 35 36 37 38 39 40 41 42 43 44 45 46 47 48 49 50 51 52 53 54 55 56 57 58 59 60 61 62 63
override FD_AND_UNAME := $(shell ulimit -n; uname -s)
override FD_N := $(word 1,$(FD_AND_UNAME))
override FD_LOW := $(if $(filter $(FD_N),$(FD_BELOW_MIN)),low)
ifeq ($(FD_LOW),low)
$(error execlag: only $(FD_N) files may be open at once (ulimit -n); the kit needs $(FD_MIN): ulimit -n 256)
endif
# SANITIZE=1: every program but tiny built with AddressSanitizer and
# UndefinedBehaviorSanitizer, a finding fatal (make test SANITIZE=1; the
# options that make a finding fail the run are set by scripts/tool/runtests).
# tiny, the launched payload, is never sanitized: its launch cost is what is
# measured, and it is static on Linux, which ASan cannot be.  The flags are
# recorded in $(BIN)/.flags: a build with other flags rebuilds every program,
# so a sanitized binary never stays behind in a plain build, nor the reverse.
SANITIZE  ?=
SAN_FLAGS  = -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer -g
ifneq ($(filter-out 0,$(SANITIZE)),)
override CFLAGS += $(SAN_FLAGS)
endif
BUILD_FLAGS = $(CC) $(CFLAGS) $(LDFLAGS)

UNAME_S   := $(word 2,$(FD_AND_UNAME))
ifeq ($(UNAME_S),Darwin)
PLAT       = darwin
DL_LIBS    =
else
PLAT       = linux
DL_LIBS    = -ldl
endif

# Every value a user gives is data.  A variable given on make's command line
# is expanded by make before it reaches a recipe's environment (a value with
# $(shell …) would run), so each is kept verbatim here and exported; recipes
# read them from the environment ("$$A"), never as recipe text.  CC, CFLAGS,
# LDFLAGS and PKG_CONFIG are make's own: commands and flags, as in any Makefile.
USER_VARS = A B DIR OUT RUN EXERCISE GATE PROFILE CASES THREADS COUNT CLASSES \
            RESULTS BENCH_LAUNCHES BENCH_ROUNDS BENCH_COPIES SENS_LATENCIES \
            SENS_RUNS BENCH_LATENCIES DESTDIR PREFIX TMPDIR ZIG EXECLAG_BIN EXECLAG_LOG \
            EXECLAG_WATCH_SERVICES EXECLAG_SYSROOT EXECLAG_DEVTOOLS \
            EXECLAG_PINS EXECLAG_MACSIM BATS_LIB_PATH FUZZ_SECONDS TAG SIZE \
            SEQUENTIAL LAUNCHER CMD PROBE MEASURE TEST_JOBS
define keep_verbatim
ifeq ($$(origin $(1)),command line)
override $(1) := $$(value $(1))
export $(1)
endif
endef
$(foreach v,$(USER_VARS),$(eval $(call keep_verbatim,$(v))))
# install reads them from the environment too (the defaults above included)
export PREFIX DESTDIR

# The scripts' EXECLAG_CACHE (a test knob) is not for make: the Makefile and
# the scripts it runs always agree on .cache/.
unexport EXECLAG_CACHE

# jansson: pkg-config's when it knows jansson (apt, Homebrew), else the static
# library scripts/tool/jansson builds from the pinned source into .cache/jansson
# (a Mac without Homebrew, Linux without root).  Decided once per make, when
# a program that links it is built (each is set on its first use: a make
# that links nothing runs no pkg-config); the entry points build in a
# sub-make, after `make deps`.
JANSSON_LOCAL  = .cache/jansson
JANSSON_FROM   = $(eval JANSSON_FROM := $(shell if $(PKG_CONFIG) --exists jansson 2>/dev/null; then echo pkg-config; \
                 elif [ -f $(JANSSON_LOCAL)/lib/libjansson.a ]; then echo local; fi))$(JANSSON_FROM)
JANSSON_CFLAGS = $(eval JANSSON_CFLAGS := $(if $(filter local,$(JANSSON_FROM)),-I$(JANSSON_LOCAL)/include,$(shell $(PKG_CONFIG) --cflags jansson 2>/dev/null)))$(JANSSON_CFLAGS)
JANSSON_LIBS   = $(eval JANSSON_LIBS := $(if $(filter local,$(JANSSON_FROM)),$(JANSSON_LOCAL)/lib/libjansson.a,$(shell $(PKG_CONFIG) --libs jansson 2>/dev/null || echo -ljansson)))$(JANSSON_LIBS)

BIN = micro/bin
PROGS = $(BIN)/mkfresh $(BIN)/launch $(BIN)/analyze $(BIN)/spawnloop $(BIN)/tiny
PROGS += $(BIN)/suite
PROGS += $(BIN)/devtools
PROGS += $(BIN)/compare $(BIN)/fbtext $(BIN)/redact
PROGS += $(BIN)/advise
# runfield: run.json's fields for make check (no jq needed)
PROGS += $(BIN)/runfield
PROGS += $(BIN)/aggregate
# the kit's error rates on the simulator (make test, make sensitivity)
PROGS += $(BIN)/simrate
# make measure: the command run and timed, its new programs counted (Linux)
PROGS += $(BIN)/execwatch $(BIN)/measure $(BIN)/mcompare
ifeq ($(PLAT),linux)
PROGS += $(BIN)/gate
# bursty load for make sensitivity, which needs the Linux gate
PROGS += $(BIN)/burn
endif

# micro/: prog/ one file a program (its main); lib/ what every program
# shares; fmt/ the files the kit reads and writes; stats/ the numbers and
# the stopping rule; launcher/ the spawn and sim backends; report/ what a
# run is shown as; plat/ *_darwin.c, *_linux.c, *_other.c.  Headers are
# included by name, found through INC.
INC = -Imicro/lib -Imicro/fmt -Imicro/stats -Imicro/launcher -Imicro/report -Imicro/plat -I$(BIN)/gen
COMMON_SRC = micro/lib/util.c micro/lib/opts.c
COMMON_HDR = micro/lib/util.h micro/lib/opts.h
# run.json's one reader (analyze, measure and advise link it for advice.c too)
RUNJSON = micro/fmt/runjson.c micro/fmt/runjson.h micro/fmt/jsonrange.h

.PHONY: all help setup build deps deps-check deps-test deps-live repro repro-full doctor test test-live check bench sensitivity \
        cross test-cross print-progs print-inc lint install uninstall clean feedback compare aggregate bench-aggregate \
        runs bench-repro bench-measure measure

# make alone: what make repro builds, with what it installs first (jansson
# where it is missing), then the next step.  make build builds and nothing
# else (the tests, scripts/tool/cross).
all: deps
	@$(MAKE) --no-print-directory build
	@echo "execlag: built. Next: make repro (measure here, the plain answer last), make doctor (five seconds), make help (every entry point)"

build: $(PROGS)

# make help: the entry points in one screen (tests/help.bats)
help:
	@echo "execlag: how much longer a just-created program waits on its first launch"
	@echo "On a Mac, in this order (README.md):"
	@echo "  make doctor        five seconds: does a new program pay here, why, what to do"
	@echo "  make repro         measure every case; the plain answer last (quick profile)"
	@echo "  make measure CMD='cargo test' DIR=<dir>  its time spent in first-launch checks"
	@echo "  make feedback      feedback.txt and a redacted archive (MEASURE=<its folder>)"
	@echo "With a run (RUN=results/<run> or its TAG; the newest by default):"
	@echo "  make compare A=<run> B=<run>  two runs side by side (after a setting changed)"
	@echo "  make check         which expected patterns hold in the run, on this machine"
	@echo "  make runs          the finished runs, a line each"
	@echo "  make aggregate DIR=<folder>   many runs in one table (a workshop)"
	@echo "More measuring:"
	@echo "  make repro-full    every thread count and core class, N=40"
	@echo "  make repro CASES=exe,script THREADS=1,2 COUNT=30 TAG=before  narrowed, named"
	@echo "For contributors (docs/maintaining.md):"
	@echo "  make test          the kit's own tests; make test-live: the timed ones"
	@echo "  make               build what make repro needs, installing what is missing"
	@echo "  make setup         everything make repro and make check use, ahead of time"
	@echo "  make lint | cross | fuzz | bench | sensitivity | install | clean"
	@echo "From any folder: bin/execlag help; make install PREFIX=~/.local installs it"

$(BIN):
	@mkdir -p $@

# The case order, generated from cases/*.case (their order=) by
# scripts/tool/casegen into $(BIN)/gen (ignored by git; make clean removes
# it); micro/fmt/cases.h includes it.  Generated when a case file or the
# folder (a file added or removed) is newer, rewritten only when it differs,
# so a case file added, changed or removed rebuilds analyze and aggregate,
# and nothing else does.  The draft is this shell's own ($$): makes at once
# in one tree (the tests') never share it.
CASES_GEN = $(BIN)/gen/cases_gen.h
$(CASES_GEN): cases $(wildcard cases/*.case) cases/kinds scripts/tool/casegen | $(BIN)
	@mkdir -p $(BIN)/gen && t=$@.$$$$.tmp && \
	if sh scripts/tool/casegen cases >$$t; then cmp -s $$t $@ && rm -f $$t || mv -f $$t $@; \
	else rm -f $$t; exit 2; fi

# The kinds table, generated from cases/kinds by scripts/tool/casegen
# --kinds the same way; micro/fmt/kinds.h includes it (mkfresh, fbtext and
# the simulator: every program that links micro/launcher/sim.c).
KINDS_GEN = $(BIN)/gen/kinds_gen.h
KINDS_HDR = micro/fmt/kinds.h $(KINDS_GEN)
$(KINDS_GEN): cases/kinds scripts/tool/casegen | $(BIN)
	@mkdir -p $(BIN)/gen && t=$@.$$$$.tmp && \
	if sh scripts/tool/casegen --kinds cases >$$t; then cmp -s $$t $@ && rm -f $$t || mv -f $$t $@; \
	else rm -f $$t; exit 2; fi

FSFLUSH = micro/plat/fsflush_$(PLAT).c
$(BIN)/mkfresh: micro/prog/mkfresh.c micro/plat/fsflush.h $(KINDS_HDR) $(FSFLUSH) $(COMMON_SRC) $(COMMON_HDR) | $(BIN)
	$(CC) $(WARN) $(INC) $(CFLAGS) $(CPPFLAGS_X) -o $@ micro/prog/mkfresh.c $(FSFLUSH) $(COMMON_SRC) $(LDFLAGS)

LAUNCHER_SRC = micro/launcher/drive.c micro/stats/stop.c micro/stats/looks.c micro/stats/orderstats.c micro/fmt/manifest.c \
               micro/launcher/launcher_spawn.c micro/launcher/launcher_sim.c micro/launcher/sim.c micro/lib/barrier.c \
               micro/plat/coreclass_$(PLAT).c micro/plat/cpuidle_$(PLAT).c \
               micro/plat/procstate_$(if $(filter linux,$(PLAT)),linux,other).c
LAUNCHER_HDR = micro/launcher/drive.h micro/stats/pass.h micro/stats/stop.h micro/stats/looks.h micro/stats/orderstats.h micro/fmt/manifest.h \
               micro/launcher/launcher.h micro/launcher/sim.h micro/launcher/simbase.h micro/lib/barrier.h micro/stats/thresholds.h micro/plat/coreclass.h \
               micro/plat/cpuidle.h micro/plat/procstate.h $(KINDS_HDR)
$(BIN)/launch: micro/prog/launch.c $(LAUNCHER_SRC) $(LAUNCHER_HDR) $(COMMON_SRC) $(COMMON_HDR) | $(BIN)
	$(CC) $(WARN) $(INC) $(CFLAGS) $(CPPFLAGS_X) $(PTHREAD) -o $@ micro/prog/launch.c $(LAUNCHER_SRC) $(COMMON_SRC) $(LDFLAGS) $(PTHREAD) -lm

$(BIN)/analyze: micro/prog/analyze.c micro/fmt/samples.c micro/fmt/samples.h micro/launcher/simbase.h micro/launcher/sim.h $(KINDS_HDR) micro/fmt/cases.h $(CASES_GEN) micro/fmt/run.c micro/fmt/run.h micro/fmt/conditions.c micro/fmt/conditions.h $(RUNJSON) micro/stats/stats.c micro/stats/stats.h micro/stats/pass.h micro/stats/stop.c micro/stats/stop.h micro/stats/orderstats.c micro/stats/orderstats.h micro/stats/looks.c micro/stats/looks.h micro/stats/thresholds.h micro/report/report.c micro/report/report.h micro/report/plot.c micro/report/plot.h micro/report/svg.c micro/report/svg.h micro/stats/suitestats.c micro/stats/suitestats.h micro/fmt/suitefile.c micro/fmt/suitefile.h micro/report/hfcompare.c micro/report/hfcompare.h micro/report/services_log.c micro/report/services_log.h micro/fmt/logexcerpt.c micro/fmt/logexcerpt.h micro/fmt/services.c micro/fmt/services.h micro/report/advice.c micro/report/advice.h micro/fmt/jsonnum.c micro/fmt/jsonnum.h $(COMMON_SRC) $(COMMON_HDR) | $(BIN)
	$(CC) $(WARN) $(INC) $(CFLAGS) $(CPPFLAGS_X) $(JANSSON_CFLAGS) -o $@ micro/prog/analyze.c micro/fmt/samples.c micro/fmt/jsonnum.c micro/fmt/run.c micro/fmt/conditions.c micro/fmt/runjson.c micro/stats/stats.c micro/stats/stop.c micro/launcher/sim.c micro/stats/orderstats.c micro/stats/looks.c micro/report/report.c micro/report/plot.c micro/report/svg.c micro/stats/suitestats.c micro/fmt/suitefile.c micro/report/hfcompare.c micro/report/services_log.c micro/fmt/logexcerpt.c micro/fmt/services.c micro/report/advice.c $(COMMON_SRC) $(LDFLAGS) $(JANSSON_LIBS) -lm

# simrate: launch's plan and stopping rule, on the simulator, through
# analyze's verdicts, in one process
SIMRATE_SRC = micro/prog/simrate.c micro/stats/stats.c micro/launcher/drive.c micro/stats/stop.c micro/stats/looks.c \
              micro/stats/orderstats.c micro/launcher/launcher_sim.c micro/launcher/sim.c
$(BIN)/simrate: $(SIMRATE_SRC) micro/stats/stats.h micro/stats/pass.h $(LAUNCHER_HDR) $(COMMON_SRC) $(COMMON_HDR) | $(BIN)
	$(CC) $(WARN) $(INC) $(CFLAGS) $(CPPFLAGS_X) -o $@ $(SIMRATE_SRC) micro/plat/cpuidle_$(PLAT).c $(COMMON_SRC) $(LDFLAGS) -lm

# C unit tests (tests/unit.bats runs them): fixed arrays into the units
$(BIN)/unit-stop: tests/unit/stop_test.c tests/unit/check.h micro/stats/stop.c micro/stats/stop.h micro/stats/looks.c micro/stats/orderstats.c micro/stats/thresholds.h $(COMMON_SRC) | $(BIN)
	$(CC) $(WARN) $(INC) $(CFLAGS) -o $@ tests/unit/stop_test.c micro/stats/stop.c micro/stats/looks.c micro/stats/orderstats.c $(COMMON_SRC) $(LDFLAGS) -lm
$(BIN)/unit-sim: tests/unit/sim_test.c tests/unit/check.h micro/launcher/sim.c micro/launcher/sim.h micro/launcher/simbase.h $(KINDS_HDR) micro/stats/orderstats.c $(COMMON_SRC) | $(BIN)
	$(CC) $(WARN) $(INC) $(CFLAGS) -o $@ tests/unit/sim_test.c micro/launcher/sim.c micro/stats/orderstats.c $(COMMON_SRC) $(LDFLAGS) -lm
UNIT = $(BIN)/unit-stop $(BIN)/unit-sim
.PHONY: unit
unit: $(UNIT)
$(UNIT): $(BIN)/.flags

$(BIN)/gate: micro/prog/gate.c micro/plat/gatetree_linux.c micro/lib/keyset.c micro/lib/keyset.h micro/plat/gatetree.h micro/plat/procfs_linux.c micro/plat/procfs.h $(COMMON_SRC) $(COMMON_HDR) | $(BIN)
	$(CC) $(WARN) $(INC) $(CFLAGS) $(CPPFLAGS_X) $(PTHREAD) $(JANSSON_CFLAGS) -o $@ micro/prog/gate.c micro/plat/gatetree_linux.c micro/lib/keyset.c micro/plat/procfs_linux.c $(COMMON_SRC) $(LDFLAGS) $(JANSSON_LIBS) $(PTHREAD)

$(BIN)/burn: micro/prog/burn.c $(COMMON_SRC) $(COMMON_HDR) | $(BIN)
	$(CC) $(WARN) $(INC) $(CFLAGS) $(CPPFLAGS_X) $(PTHREAD) -o $@ micro/prog/burn.c $(COMMON_SRC) $(LDFLAGS) $(PTHREAD)

SUITE_SRC = micro/stats/stop.c micro/stats/looks.c micro/stats/orderstats.c micro/lib/barrier.c micro/launcher/sim.c $(FSFLUSH)
$(BIN)/suite: micro/prog/suite.c $(SUITE_SRC) micro/stats/stop.h micro/stats/looks.h micro/stats/orderstats.h micro/lib/barrier.h micro/launcher/sim.h $(KINDS_HDR) micro/stats/thresholds.h micro/plat/fsflush.h $(COMMON_SRC) $(COMMON_HDR) | $(BIN)
	$(CC) $(WARN) $(INC) $(CFLAGS) $(CPPFLAGS_X) $(PTHREAD) -o $@ micro/prog/suite.c $(SUITE_SRC) $(COMMON_SRC) $(LDFLAGS) $(PTHREAD) -lm

# compare and fbtext read finished runs (run.json) for make compare / make feedback.
$(BIN)/compare: micro/prog/compare.c $(RUNJSON) micro/fmt/jsonnum.c micro/fmt/jsonnum.h $(COMMON_SRC) $(COMMON_HDR) | $(BIN)
	$(CC) $(WARN) $(INC) $(CFLAGS) $(CPPFLAGS_X) $(JANSSON_CFLAGS) -o $@ micro/prog/compare.c micro/fmt/runjson.c micro/fmt/jsonnum.c $(COMMON_SRC) $(LDFLAGS) $(JANSSON_LIBS) -lm

$(BIN)/fbtext: micro/prog/fbtext.c $(KINDS_HDR) $(RUNJSON) micro/fmt/jsonnum.c micro/fmt/jsonnum.h $(COMMON_SRC) $(COMMON_HDR) | $(BIN)
	$(CC) $(WARN) $(INC) $(CFLAGS) $(CPPFLAGS_X) $(JANSSON_CFLAGS) -o $@ micro/prog/fbtext.c micro/fmt/runjson.c micro/fmt/jsonnum.c $(COMMON_SRC) $(LDFLAGS) $(JANSSON_LIBS) -lm

# runfield: fields of a run.json for scripts/check and the pattern tests.
$(BIN)/runfield: micro/prog/runfield.c $(RUNJSON) micro/fmt/jsonnum.c micro/fmt/jsonnum.h $(COMMON_SRC) $(COMMON_HDR) | $(BIN)
	$(CC) $(WARN) $(INC) $(CFLAGS) $(CPPFLAGS_X) $(JANSSON_CFLAGS) -o $@ micro/prog/runfield.c micro/fmt/runjson.c micro/fmt/jsonnum.c $(COMMON_SRC) $(LDFLAGS) $(JANSSON_LIBS) -lm

# redact: make feedback's filter, identifying values to placeholders.
$(BIN)/redact: micro/prog/redact.c $(COMMON_SRC) $(COMMON_HDR) | $(BIN)
	$(CC) $(WARN) $(INC) $(CFLAGS) $(CPPFLAGS_X) -o $@ micro/prog/redact.c $(COMMON_SRC) $(LDFLAGS)

# advise: the plain lines for a finished run (advice.c: the cause and the
# one thing to do), and make doctor's answer with --doctor.
$(BIN)/advise: micro/prog/advise.c $(RUNJSON) micro/fmt/logexcerpt.c micro/fmt/logexcerpt.h micro/report/advice.c micro/report/advice.h micro/fmt/jsonnum.c micro/fmt/jsonnum.h $(COMMON_SRC) $(COMMON_HDR) | $(BIN)
	$(CC) $(WARN) $(INC) $(CFLAGS) $(CPPFLAGS_X) $(JANSSON_CFLAGS) -o $@ micro/prog/advise.c micro/fmt/runjson.c micro/fmt/logexcerpt.c micro/report/advice.c micro/fmt/jsonnum.c $(COMMON_SRC) $(LDFLAGS) $(JANSSON_LIBS) -lm

# aggregate: many runs' run.json into one table and a summary plot (runrow.c:
# a run.json read as a row).
$(BIN)/aggregate: micro/prog/aggregate.c micro/fmt/runrow.c micro/fmt/runrow.h micro/fmt/cases.h $(CASES_GEN) micro/stats/thresholds.h $(RUNJSON) micro/fmt/jsonnum.c micro/fmt/jsonnum.h micro/report/svg.c micro/report/svg.h $(COMMON_SRC) $(COMMON_HDR) | $(BIN)
	$(CC) $(WARN) $(INC) $(CFLAGS) $(CPPFLAGS_X) $(JANSSON_CFLAGS) -o $@ micro/prog/aggregate.c micro/fmt/runrow.c micro/fmt/runjson.c micro/fmt/jsonnum.c micro/report/svg.c $(COMMON_SRC) $(LDFLAGS) $(JANSSON_LIBS) -lm

# Developer Tools authorisation: ExecutionPolicy through the Objective-C
# runtime (dlopen) on macOS, and the responsible app (dlsym into libSystem);
# the same readers are built elsewhere for the tests.
DEVTOOLS_PLAT = $(if $(filter darwin,$(PLAT)),darwin,other)
DEVTOOLS_SRC  = micro/prog/devtools.c micro/plat/devtools_objc.c micro/lib/dlsym.c micro/plat/devtools_$(DEVTOOLS_PLAT).c \
                micro/plat/responsible_dl.c micro/plat/responsible_$(DEVTOOLS_PLAT).c
$(BIN)/devtools: $(DEVTOOLS_SRC) micro/plat/devtools.h micro/plat/responsible.h micro/lib/dlsym.h $(COMMON_SRC) $(COMMON_HDR) | $(BIN)
	$(CC) $(WARN) $(INC) $(CFLAGS) $(CPPFLAGS_X) -o $@ $(DEVTOOLS_SRC) $(COMMON_SRC) $(LDFLAGS) $(DL_LIBS)

# execwatch runs make measure's command; on Linux it also counts the new
# programs the command executes (fanotify), elsewhere it says why it cannot.
EXECWATCH_PLAT = $(if $(filter linux,$(PLAT)),linux,other)
EXECWATCH_SRC  = micro/prog/execwatch.c micro/plat/execwatch_$(EXECWATCH_PLAT).c micro/lib/keyset.c $(if $(filter linux,$(PLAT)),micro/plat/procfs_linux.c)
$(BIN)/execwatch: $(EXECWATCH_SRC) micro/lib/keyset.h micro/plat/execwatch.h $(COMMON_SRC) $(COMMON_HDR) | $(BIN)
	$(CC) $(WARN) $(INC) $(CFLAGS) $(CPPFLAGS_X) -o $@ $(EXECWATCH_SRC) $(COMMON_SRC) $(LDFLAGS)

# measure: make measure's answer (W, N, L, B, share) in measure.json
# (advice.c: its cause and do lines are make doctor's)
$(BIN)/measure: micro/prog/measure.c micro/fmt/conditions.c micro/fmt/conditions.h $(RUNJSON) micro/fmt/services.c micro/fmt/services.h micro/stats/thresholds.h micro/fmt/jsonnum.c micro/fmt/jsonnum.h micro/report/advice.c micro/report/advice.h $(COMMON_SRC) $(COMMON_HDR) | $(BIN)
	$(CC) $(WARN) $(INC) $(CFLAGS) $(CPPFLAGS_X) $(JANSSON_CFLAGS) -o $@ micro/prog/measure.c micro/fmt/conditions.c micro/fmt/runjson.c micro/fmt/services.c micro/fmt/jsonnum.c micro/report/advice.c $(COMMON_SRC) $(LDFLAGS) $(JANSSON_LIBS) -lm

# mcompare: make compare of two measures
$(BIN)/mcompare: micro/prog/mcompare.c micro/fmt/jsonnum.c micro/fmt/jsonnum.h $(COMMON_SRC) $(COMMON_HDR) | $(BIN)
	$(CC) $(WARN) $(INC) $(CFLAGS) $(CPPFLAGS_X) $(JANSSON_CFLAGS) -o $@ micro/prog/mcompare.c micro/fmt/jsonnum.c $(COMMON_SRC) $(LDFLAGS) $(JANSSON_LIBS) -lm

$(BIN)/spawnloop: micro/prog/spawnloop.c $(COMMON_SRC) $(COMMON_HDR) | $(BIN)
	$(CC) $(WARN) $(INC) $(CFLAGS) $(CPPFLAGS_X) -o $@ micro/prog/spawnloop.c $(COMMON_SRC) $(LDFLAGS)

# The benchmark's payload: as small as the platform allows (static on Linux).
$(BIN)/tiny: micro/prog/tiny.c | $(BIN)
	$(CC) $(WARN) $(INC) -O2 -o $@ micro/prog/tiny.c $(if $(filter linux,$(PLAT)),-static,) 2>/dev/null || \
	$(CC) $(WARN) $(INC) -O2 -o $@ micro/prog/tiny.c

# make setup: everything make repro and make check use, installed or built
# once and the programs built (before a workshop: nothing is fetched later).
setup:
	@sh scripts/tool/deps run
	@sh scripts/tool/deps check
	@$(MAKE) --no-print-directory build
	@echo "execlag: ready for make repro and make check (make test, the kit's own tests, may install more)"

deps:
	@sh scripts/tool/deps run
deps-check:
	@sh scripts/tool/deps check
deps-test:
	@sh scripts/tool/deps test

# make test-live's real tools too (autotools, Debian's cargo and rustc and
# crates, ClamAV under CI: scripts/tool/deps live)
deps-live:
	@sh scripts/tool/deps live

repro: deps
	@$(MAKE) --no-print-directory build
	@sh scripts/repro --profile quick

# make doctor [GATE=…] [LAUNCHER=…]: in about five seconds, whether a new
# program pays here now, why, and the one thing to do (scripts/doctor);
# builds only what its probe runs.  scripts/doctor exits 0 none, 1 penalty,
# 3 unclear; through make any status but 0 is make's 2.
DOCTOR_PROGS = $(BIN)/mkfresh $(BIN)/launch $(BIN)/analyze $(BIN)/devtools $(BIN)/advise
ifeq ($(PLAT),linux)
DOCTOR_PROGS += $(BIN)/gate
endif
doctor: deps
	@$(MAKE) -s --no-print-directory $(DOCTOR_PROGS)
	@sh scripts/doctor

repro-full: deps
	@$(MAKE) --no-print-directory build
	@sh scripts/repro --profile full

# make test: the tests whose pass or fail cannot depend on how fast or how
# busy the machine is (fixtures, fakes, bad input, entry points, signals),
# as many at once as there are CPUs where GNU parallel is installed
# (TEST_JOBS=N to choose).  make test-live: those that can (the calibration
# gate's truth, ClamAV, hyperfine against the harness, the workshop guide as
# written, the emulated arm64 run, every= and per_mb=), one at a time, on
# the plain build: Linux and root (fanotify), else one line says why it
# skips.  No command-line flags reach its nested makes (MAKEFLAGS=), which
# build plain.
test: deps-test
	@$(MAKE) --no-print-directory build unit
	@sh scripts/tool/runtests $${TEST_JOBS:+--jobs "$$TEST_JOBS"} tests

test-live: deps-live
	@$(MAKE) --no-print-directory SANITIZE= build
	@SANITIZE= MAKEFLAGS= sh scripts/tool/runtests --live tests/live

# make check: scripts/check's 1 (a pattern does not hold) is a finding
# about the machine, not an error of the kit: make check exits 0 for it, 2
# for bad input (make's own 2 for any other status).
check: deps-check
	@$(MAKE) -s --no-print-directory build
	@sh scripts/check $${RUN:+--run "$$RUN"} $${EXERCISE:+--exercise "$$EXERCISE"}; \
	rc=$$?; [ "$$rc" != 1 ] || rc=0; exit "$$rc"

bench: deps-test
	@$(MAKE) --no-print-directory build
	@sh scripts/tool/bench

sensitivity: deps-test
	@$(MAKE) --no-print-directory build
	@sh scripts/tool/sensitivity

bench-repro: deps-test
	@$(MAKE) --no-print-directory build
	@sh scripts/tool/bench-repro

bench-measure: deps-test
	@$(MAKE) --no-print-directory build
	@sh scripts/tool/bench-measure

feedback: deps
	@$(MAKE) -s --no-print-directory $(BIN)/fbtext $(BIN)/redact
	@sh scripts/feedback $${RUN:+--run "$$RUN"} $${MEASURE:+--measure "$$MEASURE"}

# make compare A=... B=...: two runs, or two measures (folders holding
# measure.json: mcompare); scripts/compare finds them (a TAG, a ~/ path)
compare: deps
	@$(MAKE) -s --no-print-directory $(BIN)/compare $(BIN)/mcompare
	@sh scripts/compare -- "$${A-}" "$${B-}"

# make measure CMD='cargo test' [DIR=folder] [PROBE=0] [GATE=...]: CMD is one
# shell command line of the user's own, run by sh -c as typed (its quotes,
# $ and globs mean what they mean to sh), in DIR, else the folder make runs
# in; the value reaches sh through the environment, never as recipe text.
measure: deps
	@$(MAKE) -s --no-print-directory build
	@if [ -z "$${CMD-}" ]; then \
		echo "execlag: make measure needs CMD='your command' (and DIR=its folder; scripts/measure --help)" >&2; \
		exit 2; \
	fi; \
	sh scripts/measure $${DIR:+--dir "$$DIR"} -- sh -c "$$CMD"

# make runs: the finished runs, a line each (tag, start, gate, cases); a
# run's TAG names it for RUN=, A= and B=.  Reads conditions.txt: no build.
runs:
	@sh scripts/runs

aggregate: deps
	@$(MAKE) -s --no-print-directory $(BIN)/aggregate
	@. scripts/lib/home; d=$$(home_path "$${DIR-}"); o=$$(home_path "$${OUT-}"); \
	$(BIN)/aggregate --dir "$$d" $${OUT:+--out "$$o"}

bench-aggregate: deps-test
	@$(MAKE) -s --no-print-directory $(BIN)/aggregate
	@sh scripts/tool/bench-aggregate

cross:
	@sh scripts/tool/cross

# make test-cross: make cross and its checks (tests/cross): every program a
# Mach-O or ELF of its target, jansson inside.  CI's cross tier; out of make
# test, which should not wait for zig (353 MB) and its libc for three targets.
test-cross: deps-test
	@sh scripts/tool/runtests --jobs 1 tests/cross

# make fuzz [FUZZ_SECONDS=60]: the manifest, samples and run.json readers
# fuzzed with AFL++ and the sanitizers for FUZZ_SECONDS each (scripts/tool/fuzz,
# which installs AFL++ or says why it skips).  FUZZ_SECONDS reaches it
# through the environment, as make passes a command line's variables.
.PHONY: fuzz
fuzz:
	@sh scripts/tool/fuzz

# for scripts/tool/cross: the programs this platform builds
print-progs:
	@echo $(PROGS)
# for scripts/tool/fuzz: the include folders (the generated one made)
print-inc: $(CASES_GEN) $(KINDS_GEN)
	@echo $(INC)

lint:
	@sh scripts/tool/lint

# make install [PREFIX=/usr/local] [DESTDIR=]: a kit that runs from any
# folder (docs/maintaining.md): $(PREFIX)/bin/execlag, the one entry, and
# $(PREFIX)/libexec/execlag/ with what it runs: the scripts and probes, the
# cases, the checks, data, docs, the compiled programs (micro/bin), VERSION,
# and bats where make deps-check unpacked it (.cache/bats).  An installed
# kit's results go to ${XDG_DATA_HOME:-~/.local/share}/execlag/results
# (execlag help says where).  A leading ~/ in PREFIX or DESTDIR is the home
# folder (zsh passes PREFIX=~/.local as it is).  make uninstall removes
# both, never the results.
install: build
	@. scripts/lib/home; p=$$(home_path "$$PREFIX"); d=$$(home_path "$$DESTDIR"); \
	case $$p in /*) ;; *) echo "execlag: PREFIX '$$p' is not an absolute path" >&2; exit 2 ;; esac; \
	k=$$d$$p/libexec/execlag; \
	echo "execlag: installing $$d$$p/bin/execlag and the kit it runs, $$k/"; \
	rm -rf "$$k" && mkdir -p "$$k/micro/bin" "$$d$$p/bin" && \
	cp -R scripts cases checks data docs "$$k/" && cp README.md LICENSE "$$k/" && \
	cp $(PROGS) "$$k/micro/bin/" && printf '%s\n' '$(VERSION)' >"$$k/VERSION" && \
	{ [ ! -d .cache/bats ] || { mkdir -p "$$k/.cache" && cp -R .cache/bats "$$k/.cache/"; }; } && \
	cp bin/execlag "$$d$$p/bin/execlag.tmp" && chmod 755 "$$d$$p/bin/execlag.tmp" && \
	mv -f "$$d$$p/bin/execlag.tmp" "$$d$$p/bin/execlag" && \
	echo "execlag: installed; run $$p/bin/execlag help (from any folder)"

uninstall:
	@. scripts/lib/home; p=$$(home_path "$$PREFIX"); d=$$(home_path "$$DESTDIR"); \
	case $$p in /*) ;; *) echo "execlag: PREFIX '$$p' is not an absolute path" >&2; exit 2 ;; esac; \
	rm -rf "$$d$$p/libexec/execlag" && rm -f "$$d$$p/bin/execlag" && \
	echo "execlag: removed $$d$$p/bin/execlag and $$d$$p/libexec/execlag/ (the results stay where they are)"

clean:
	rm -rf $(BIN)

# Every program is rebuilt when the compiler or its flags change (SANITIZE,
# CFLAGS, CC): the stamp is rewritten only when they differ from the last build
# (read by the shell itself: every entry point's sub-make runs this).
$(PROGS): $(BIN)/.flags
$(BIN)/.flags: FORCE | $(BIN)
	@flags='$(subst ','\'',$(BUILD_FLAGS))'; built=; \
	{ IFS= read -r built <$@; } 2>/dev/null; \
	[ "$$flags" = "$$built" ] || printf '%s\n' "$$flags" >$@
FORCE:
