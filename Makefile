# execlag - the entry points a user runs (make help lists them), then how
# the programs are built.  What a user may set (CC, CFLAGS, PREFIX, DESTDIR,
# SANITIZE, jansson) is in config.mk; the maintainers' targets (test, lint,
# cross, fuzz, the benchmarks, the dependency steps) are in maint.mk.

include config.mk

VERSION = 0.1.0

# No built-in rules (what make -r does, which make 3.81 cannot set from a
# makefile): make would look for a way to make every header and .d file
# from RCS, SCCS and the like on each run.
.SUFFIXES:
%:: %,v
%:: RCS/%,v
%:: RCS/%
%:: s.%
%:: SCCS/s.%

.PHONY: all help build deps setup doctor repro repro-full remedies measure feedback compare check runs aggregate \
        install uninstall clean

# make alone: what make repro builds, with what it installs first (jansson
# where it is missing), then the next step.
all: deps
	@$(SUBMAKE) --no-print-directory build
	@echo "execlag: built. Next: make repro (measure here, the plain answer last), make doctor (five seconds), make help (every entry point)"

# make help: the entry points in one screen (tests/help.bats), one shell
help:
	@printf '%s\n' \
	"execlag: how much longer a just-created program waits on its first launch" \
	"On a Mac, in this order (README.md):" \
	"  make doctor        five seconds: does a new program pay here, why, what to do" \
	"  make repro         measure every case; the plain answer last (quick profile)" \
	"  make remedies      each way a build places a program: cost, kills, what to use" \
	"  make measure CMD='cargo test' DIR=<dir>  its time spent in first-launch checks" \
	"  make feedback      feedback.txt and a redacted archive (MEASURE=<its folder>)" \
	"With a run (RUN=results/<run> or its TAG; the newest by default):" \
	"  make compare A=<run> B=<run>  two runs side by side (after a setting changed)" \
	"  make check         which expected patterns hold in the run, on this machine" \
	"  make runs          the finished runs, a line each" \
	"  make aggregate DIR=<folder>   many runs in one table (a workshop)" \
	"More measuring:" \
	"  make repro-full    every thread count and core class, N=40" \
	"  make repro CASES=exe,script THREADS=1,2 COUNT=30 TAG=before  narrowed, named" \
	"For contributors (docs/maintaining.md):" \
	"  make test          the kit's own tests; make test-live: the timed ones" \
	"  make               build what make repro needs, installing what is missing" \
	"  make setup         everything make repro and make check use, ahead of time" \
	"  make lint | cross | fuzz | bench | sensitivity | install | clean" \
	"From any folder: bin/execlag help; make install PREFIX=~/.local installs it"

# make's dependency step: jansson where it is missing (scripts/tool/deps)
deps:
	@sh scripts/tool/deps run

# make setup: everything make repro and make check use, installed or built
# once and the programs built (before a workshop: nothing is fetched later).
setup:
	@sh scripts/tool/deps run
	@sh scripts/tool/deps check
	@$(SUBMAKE) --no-print-directory build
	@echo "execlag: ready for make repro and make check (make test, the kit's own tests, may install more)"

# make doctor [GATE=…] [LAUNCHER=…]: in about five seconds, whether a new
# program pays here now, why, and the one thing to do (scripts/doctor);
# builds only what its probe runs.  scripts/doctor exits 0 none, 1 penalty,
# 3 unclear; through make any status but 0 is make's 2.
doctor: deps
	@$(SUBMAKE) -s --no-print-directory $(DOCTOR_PROGS)
	@sh scripts/doctor

repro: deps
	@$(SUBMAKE) --no-print-directory build
	@sh scripts/repro --profile quick

repro-full: deps
	@$(SUBMAKE) --no-print-directory build
	@sh scripts/repro --profile full

# make remedies [FULL=1 | COUNT=N] [PLACEMENT=case] [THREADS=...]: every
# placement of the placements table that runs here, in one run, and the
# remedies table last; FULL=1 (or COUNT=N) the kill rate of one placement
# at 3,840 (N) launches (scripts/remedies, docs/remedies.md)
remedies: deps
	@$(SUBMAKE) --no-print-directory build
	@sh scripts/remedies

# make measure CMD='cargo test' [DIR=folder] [PROBE=0] [GATE=...]: CMD is one
# shell command line of the user's own, run by sh -c as typed (its quotes,
# $ and globs mean what they mean to sh), in DIR, else the folder make runs
# in; the value reaches sh through the environment, never as recipe text.
measure: deps
	@$(SUBMAKE) -s --no-print-directory build
	@if [ -z "$${CMD-}" ]; then \
		echo "execlag: make measure needs CMD='your command' (and DIR=its folder; scripts/measure --help)" >&2; \
		exit 2; \
	fi; \
	sh scripts/measure $${DIR:+--dir "$$DIR"} -- sh -c "$$CMD"

feedback: deps
	@$(SUBMAKE) -s --no-print-directory $(BIN)/fbtext $(BIN)/redact
	@sh scripts/feedback $${RUN:+--run "$$RUN"} $${MEASURE:+--measure "$$MEASURE"}

# make compare A=... B=...: two runs, or two measures (folders holding
# measure.json: mcompare); scripts/compare finds them (a TAG, a ~/ path)
compare: deps
	@$(SUBMAKE) -s --no-print-directory $(BIN)/compare $(BIN)/mcompare
	@sh scripts/compare -- "$${A-}" "$${B-}"

# make check: scripts/check's 1 (a pattern does not hold) is a finding
# about the machine, not an error of the kit: make check exits 0 for it, 2
# for bad input (make's own 2 for any other status).
check: deps-check
	@$(SUBMAKE) -s --no-print-directory build
	@sh scripts/check $${RUN:+--run "$$RUN"} $${EXERCISE:+--exercise "$$EXERCISE"}; \
	rc=$$?; [ "$$rc" != 1 ] || rc=0; exit "$$rc"

# make runs: the finished runs, a line each (tag, start, gate, cases); a
# run's TAG names it for RUN=, A= and B=.  Reads conditions.txt, and asks
# runfield a simulated run's settings.
runs: deps
	@$(SUBMAKE) -s --no-print-directory $(BIN)/runfield
	@sh scripts/runs

aggregate: deps
	@$(SUBMAKE) -s --no-print-directory $(BIN)/aggregate
	@. scripts/lib/home; d=$$(home_path "$${DIR-}"); o=$$(home_path "$${OUT-}"); \
	$(BIN)/aggregate --dir "$$d" $${OUT:+--out "$$o"}

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

# ---------------------------------------------------------------------------
# What make does with a user's values

# Every value a user gives is data.  A variable given on make's command line
# is expanded by make before it reaches a recipe's environment (a value with
# $(shell …) would run), so each is kept verbatim here and exported; recipes
# read them from the environment ("$$A"), never as recipe text.  CC, CFLAGS,
# LDFLAGS, AR and PKG_CONFIG are make's own: commands and flags, as in any
# Makefile.
USER_VARS = A B DIR OUT RUN EXERCISE GATE PROFILE CASES THREADS COUNT CLASSES \
            RESULTS BENCH_LAUNCHES BENCH_ROUNDS BENCH_COPIES SENS_LATENCIES \
            SENS_RUNS BENCH_LATENCIES BENCH_LATENCY DESTDIR PREFIX TMPDIR ZIG EXECLAG_BIN EXECLAG_LOG \
            EXECLAG_WATCH_SERVICES EXECLAG_SYSROOT EXECLAG_DEVTOOLS \
            EXECLAG_PINS EXECLAG_MACSIM BATS_LIB_PATH FUZZ_SECONDS TAG SIZE \
            SEQUENTIAL LAUNCHER CMD PROBE MEASURE TEST_JOBS TEST_TIMING FULL PLACEMENT
define keep_verbatim
ifeq ($$(origin $(1)),command line)
override $(1) := $$(value $(1))
export $(1)
endif
endef
$(foreach v,$(USER_VARS),$(eval $(call keep_verbatim,$(v))))
# install reads them from the environment too (the defaults included)
export PREFIX DESTDIR

# The scripts' EXECLAG_CACHE (a test knob) is not for make: the Makefile and
# the scripts it runs always agree on .cache/.
unexport EXECLAG_CACHE

# Open files allowed (ulimit -n): below FD_MIN a linker fails ("out of file
# descriptors"), and dash, Linux's /bin/sh, cannot even read a script under
# 11 ("sh: 0: 3: Invalid argument"), so say so before any recipe.  The one
# shell make starts to read its makefiles (the ; has make hand the line to
# sh, whose builtin ulimit is: make 3.81 would look for a program of that
# name, and a redirection would need a descriptor more);
# the limit is compared by make itself: below FD_MIN is one of the words of
# FD_BELOW_MIN (ulimit -n prints a whole number or "unlimited").
override FD_MIN = 64
override FD_BELOW_MIN = 0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31 \
                        32 33 34 35 36 37 38 39 40 41 42 43 44 45 46 47 48 49 50 51 52 53 54 55 56 57 58 59 60 61 62 63
# An entry point's own make tells the make it runs (SUBMAKE) the limit it
# found, on that make's command line: the limit is the one it inherits, and
# asking again is a shell more.  Taken only from a make's command line
# below the first (MAKELEVEL), and only a whole number or unlimited.
SUBMAKE = $(MAKE) EXECLAG_FD_N=$(FD_N)
fd_digits_gone = $(subst 0,,$(subst 1,,$(subst 2,,$(subst 3,,$(subst 4,,$(subst 5,,$(subst 6,,$(subst 7,,$(subst 8,,$(subst 9,,$(1)))))))))))
fd_word = $(if $(word 2,$(1)),,$(or $(filter unlimited,$(1)),$(if $(1),$(if $(call fd_digits_gone,$(1)),,1))))
fd_told = $(and $(filter-out 0,$(MAKELEVEL)),$(filter command line,$(origin EXECLAG_FD_N)),$(call fd_word,$(EXECLAG_FD_N)))
override FD_N := $(if $(fd_told),$(EXECLAG_FD_N),$(shell ulimit -n;))
ifneq ($(filter $(FD_N),$(FD_BELOW_MIN)),)
$(error execlag: only $(FD_N) files may be open at once (ulimit -n); the kit needs $(FD_MIN): ulimit -n 256)
endif

# ---------------------------------------------------------------------------
# The build

# macOS is told by the file every macOS has (no uname process); anything
# else builds as Linux.  scripts/tool/cross sets PLAT and DL_LIBS.
ifneq ($(wildcard /System/Library/CoreServices/SystemVersion.plist),)
PLAT    = darwin
DL_LIBS =
else
PLAT    = linux
DL_LIBS = -ldl
endif

# SANITIZE=1: every program but tiny built with AddressSanitizer and
# UndefinedBehaviorSanitizer, a finding fatal (the options that make a
# finding fail the run are set by scripts/tool/runtests).  tiny, the
# launched payload, is never sanitized: its launch cost is what is measured,
# and it is static on Linux, which ASan cannot be.
SAN_FLAGS = -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer -g
ifneq ($(filter-out 0,$(SANITIZE)),)
override CFLAGS += $(SAN_FLAGS)
endif

WARN       = -std=c11 -Wall -Wextra -Wno-unused-parameter
CPPFLAGS_X = -DEXECLAG_VERSION='"$(VERSION)"'
PTHREAD    = -pthread
# Headers are included by name, found through INC: the folders in their
# order (docs/maintaining.md, "Folders and arrows"; make lint holds it), each
# header's name its own.
INC = -Imicro/lib -Imicro/plat -Imicro/model -Imicro/fmt -Imicro/stats -Imicro/launcher -Imicro/make -Imicro/report -I$(BIN)/gen

# The programs: micro/prog/NAME.c is the main of $(BIN)/NAME.
BIN    = micro/bin
PROGS  = $(BIN)/mkfresh $(BIN)/launch $(BIN)/analyze $(BIN)/spawnloop $(BIN)/tiny $(BIN)/suite $(BIN)/devtools
PROGS += $(BIN)/compare $(BIN)/fbtext $(BIN)/redact $(BIN)/advise $(BIN)/runfield $(BIN)/aggregate $(BIN)/simrate
PROGS += $(BIN)/execwatch $(BIN)/measure $(BIN)/mcompare
ifeq ($(PLAT),linux)
# the calibration gate, and the bursty load of make sensitivity
PROGS += $(BIN)/gate $(BIN)/burn
endif
# what make doctor's probe runs
DOCTOR_PROGS = $(BIN)/mkfresh $(BIN)/launch $(BIN)/analyze $(BIN)/devtools $(BIN)/advise $(if $(filter linux,$(PLAT)),$(BIN)/gate)

# make build builds and nothing else (the tests, scripts/tool/cross)
build: $(PROGS)

# What a program links beyond the archive.
$(BIN)/analyze $(BIN)/compare $(BIN)/fbtext $(BIN)/runfield $(BIN)/advise \
$(BIN)/aggregate $(BIN)/measure $(BIN)/mcompare: PROGLIBS = $(JANSSON_LIBS) -lm
$(BIN)/launch $(BIN)/suite: PROGLIBS = $(PTHREAD) -lm
$(BIN)/simrate $(BIN)/execwatch: PROGLIBS = -lm
$(BIN)/gate:                PROGLIBS = $(JANSSON_LIBS) $(PTHREAD)
$(BIN)/burn:                PROGLIBS = $(PTHREAD)
$(BIN)/devtools:            PROGLIBS = $(DL_LIBS)

# The units the programs share, compiled once into one archive, from which
# the linker takes what each program uses: every C file of micro/lib, model
# (types only: none today), fmt, stats, launcher, make (mkfresh's makers) and report, and of
# micro/plat those for every platform,
# NAME_$(PLAT).c, and NAME_other.c where there is no NAME_$(PLAT).c.  A new
# unit is a new file: no list to edit.  (The archive keeps a member's base
# name: two units never share one.  LIBSRC given to make builds a smaller
# archive: tests/maint/sanitize.bats.)
PLAT_OWN = $(wildcard micro/plat/*_$(PLAT).c)
LIBSRC  := $(sort $(wildcard micro/lib/*.c micro/model/*.c micro/fmt/*.c micro/stats/*.c micro/launcher/*.c micro/make/*.c micro/report/*.c) \
             $(filter-out %_linux.c %_darwin.c %_other.c,$(wildcard micro/plat/*.c)) $(PLAT_OWN) \
             $(filter-out $(PLAT_OWN:_$(PLAT).c=_other.c),$(wildcard micro/plat/*_other.c)))
LIB = $(BIN)/libexeclag.a

# Objects and the headers each includes ($(OBJ)/PATH.d, written by the
# compiler: -MMD -MP) mirror the sources' paths under $(OBJ).
OBJ     = $(BIN)/obj
LINKED  = $(filter-out $(BIN)/tiny,$(PROGS))
LIBOBJ := $(LIBSRC:%.c=$(OBJ)/%.o)
OBJS    = $(LIBOBJ) $(LINKED:$(BIN)/%=$(OBJ)/micro/prog/%.o)

# The case order, generated from cases/*.case (their order=) by
# scripts/tool/casegen into $(BIN)/gen (ignored by git; make clean removes
# it); micro/fmt/cases.h includes it.  Generated when a case file or the
# folder (a file added or removed) is newer, rewritten only when it differs,
# so a case file added, changed or removed recompiles the units that include
# it, and nothing else.  The draft is this shell's own ($$): makes at once
# in one tree (the tests') never share it.
CASES_GEN = $(BIN)/gen/cases_gen.h
$(CASES_GEN): cases $(wildcard cases/*.case) cases/kinds scripts/tool/casegen | $(BIN)
	@mkdir -p $(BIN)/gen && t=$@.$$$$.tmp && \
	if sh scripts/tool/casegen cases >$$t; then cmp -s $$t $@ && rm -f $$t || mv -f $$t $@; \
	else rm -f $$t; exit 2; fi

# The kinds table, generated from cases/kinds by scripts/tool/casegen
# --kinds the same way; micro/fmt/kinds.h includes it (mkfresh, fbtext and
# the simulator).
KINDS_GEN = $(BIN)/gen/kinds_gen.h
$(KINDS_GEN): cases/kinds scripts/tool/casegen | $(BIN)
	@mkdir -p $(BIN)/gen && t=$@.$$$$.tmp && \
	if sh scripts/tool/casegen --kinds cases >$$t; then cmp -s $$t $@ && rm -f $$t || mv -f $$t $@; \
	else rm -f $$t; exit 2; fi

# The placements table, generated from cases/placements by
# scripts/tool/casegen --placements the same way; micro/stats/placements.c
# includes it (make remedies' table).
PLACEMENTS_GEN = $(BIN)/gen/placements_gen.h
$(PLACEMENTS_GEN): cases/placements scripts/tool/casegen | $(BIN)
	@mkdir -p $(BIN)/gen && t=$@.$$$$.tmp && \
	if sh scripts/tool/casegen --placements cases >$$t; then cmp -s $$t $@ && rm -f $$t || mv -f $$t $@; \
	else rm -f $$t; exit 2; fi

# One rule for the programs, one for the objects.  Every object waits for
# the generated case order, kinds table and placements table (its .d says
# which include them), and is rebuilt
# when the compiler or its flags change ($(BIN)/.flags, below).
LINK    = $(CC) $(CFLAGS) -o $@ $< $(LIB) $(LDFLAGS) $(PROGLIBS)
COMPILE = $(CC) $(WARN) $(INC) $(CFLAGS) $(CPPFLAGS_X) $(PTHREAD) $(JANSSON_CFLAGS) -MMD -MP -c -o $@ $<

$(LINKED): $(BIN)/%: $(OBJ)/micro/prog/%.o $(LIB)
	$(LINK)

$(LIB): $(LIBOBJ)
	rm -f $@
	$(AR) rcs $@ $(LIBOBJ)

$(OBJ)/%.o: %.c $(BIN)/.flags | $(CASES_GEN) $(KINDS_GEN) $(PLACEMENTS_GEN)
	@mkdir -p $(@D)
	$(COMPILE)

# The benchmark's payload: as small as the platform allows (static on
# Linux), with no flags of the user's and nothing of the archive.
$(BIN)/tiny: micro/prog/tiny.c $(BIN)/.flags
	$(CC) $(WARN) -O2 -o $@ micro/prog/tiny.c $(if $(filter linux,$(PLAT)),-static,) 2>/dev/null || \
	$(CC) $(WARN) -O2 -o $@ micro/prog/tiny.c

# Every program is rebuilt when the compiler or its flags change (SANITIZE,
# CFLAGS, CC): the stamp is rewritten only when they differ from the last
# build (read by the shell itself), so a sanitized binary never stays
# behind in a plain build, nor the reverse.  Beside it, $(BIN)/.flags.mk
# says the same to make, where the flags are plain words (letters, digits,
# blanks, quotes and . _ / = + , : @ % -): when they are this build's, make
# knows the stamp is current without a shell (every entry point's sub-make
# and every make of one program would start one).
BUILD_FLAGS = $(CC) $(CFLAGS) $(LDFLAGS)
-include $(BIN)/.flags.mk
ifneq ($(value execlag.built.flags),$(BUILD_FLAGS))
$(BIN)/.flags: FORCE
endif
$(BIN)/.flags: | $(BIN)
	@flags='$(subst ','\'',$(BUILD_FLAGS))'; built=; \
	{ IFS= read -r built <$@; } 2>/dev/null; \
	[ "$$flags" = "$$built" ] || printf '%s\n' "$$flags" >$@; \
	case $$flags in \
	*[!-A-Za-z0-9\ ._/=+,:@%\'\"]*) rm -f $@.mk ;; \
	*) printf 'execlag.built.flags = %s\n' "$$flags" >$@.mk.$$$$ && mv -f $@.mk.$$$$ $@.mk ;; \
	esac
FORCE:

$(BIN):
	@mkdir -p $@

# The headers each object includes matter only to a make that compiles: an
# entry point builds in a make of its own ($(SUBMAKE) build), and the one it
# runs in does not read the 130 .d files (some 10 ms each time).  These
# goals (maint.mk's too) compile nothing in their own make.
ENTRY_GOALS = help deps setup doctor repro repro-full remedies measure feedback compare check runs aggregate \
              uninstall clean deps-check deps-test deps-live test test-live test-cross test-maint lint cross fuzz \
              bench bench-repro bench-measure bench-aggregate bench-remedies sensitivity print-progs print-inc
-include $(if $(MAKECMDGOALS),$(if $(filter-out $(ENTRY_GOALS),$(MAKECMDGOALS)),$(OBJS:.o=.d)),$(OBJS:.o=.d))
include maint.mk
