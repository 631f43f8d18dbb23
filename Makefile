# execlag - every entry point.  CC, CFLAGS, LDFLAGS, PREFIX, DESTDIR overridable.

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

UNAME_S   := $(shell uname -s)
ifeq ($(UNAME_S),Darwin)
PLAT       = darwin
DL_LIBS    =
else
PLAT       = linux
DL_LIBS    = -ldl
endif

# jansson through pkg-config; evaluated lazily so `make deps` runs first.
JANSSON_CFLAGS = $(shell $(PKG_CONFIG) --cflags jansson 2>/dev/null)
JANSSON_LIBS   = $(shell $(PKG_CONFIG) --libs jansson 2>/dev/null || echo -ljansson)

BIN = micro/bin
PROGS = $(BIN)/mkfresh $(BIN)/launch $(BIN)/analyze $(BIN)/spawnloop $(BIN)/tiny
ifeq ($(PLAT),linux)
PROGS += $(BIN)/gate
endif

COMMON_SRC = micro/util.c
COMMON_HDR = micro/util.h

.PHONY: all build deps deps-test repro repro-full test check bench sensitivity \
        cross lint install uninstall clean feedback compare aggregate

all: build
build: $(PROGS)

$(BIN):
	@mkdir -p $@

$(BIN)/mkfresh: micro/mkfresh.c $(COMMON_SRC) $(COMMON_HDR) | $(BIN)
	$(CC) $(WARN) $(CFLAGS) $(CPPFLAGS_X) -o $@ micro/mkfresh.c $(COMMON_SRC) $(LDFLAGS)

$(BIN)/launch: micro/launch.c micro/coreclass.h micro/coreclass_$(PLAT).c $(COMMON_SRC) $(COMMON_HDR) | $(BIN)
	$(CC) $(WARN) $(CFLAGS) $(CPPFLAGS_X) $(PTHREAD) -o $@ micro/launch.c micro/coreclass_$(PLAT).c $(COMMON_SRC) $(LDFLAGS) $(PTHREAD)

$(BIN)/analyze: micro/analyze.c micro/stats.c micro/stats.h micro/thresholds.h micro/report.c micro/report.h $(COMMON_SRC) $(COMMON_HDR) | $(BIN)
	$(CC) $(WARN) $(CFLAGS) $(CPPFLAGS_X) $(JANSSON_CFLAGS) -o $@ micro/analyze.c micro/stats.c micro/report.c $(COMMON_SRC) $(LDFLAGS) $(JANSSON_LIBS) -lm

$(BIN)/gate: micro/gate_linux.c $(COMMON_SRC) $(COMMON_HDR) | $(BIN)
	$(CC) $(WARN) $(CFLAGS) $(CPPFLAGS_X) $(PTHREAD) $(JANSSON_CFLAGS) -o $@ micro/gate_linux.c $(COMMON_SRC) $(LDFLAGS) $(JANSSON_LIBS) $(PTHREAD)

$(BIN)/spawnloop: micro/spawnloop.c $(COMMON_SRC) $(COMMON_HDR) | $(BIN)
	$(CC) $(WARN) $(CFLAGS) $(CPPFLAGS_X) -o $@ micro/spawnloop.c $(COMMON_SRC) $(LDFLAGS)

# The benchmark's payload: as small as the platform allows (static on Linux).
$(BIN)/tiny: micro/tiny.c | $(BIN)
	$(CC) $(WARN) -O2 -o $@ micro/tiny.c $(if $(filter linux,$(PLAT)),-static,) 2>/dev/null || \
	$(CC) $(WARN) -O2 -o $@ micro/tiny.c

deps:
	@sh scripts/deps run
deps-test:
	@sh scripts/deps test

repro: deps
	@$(MAKE) --no-print-directory build
	@sh scripts/repro --profile quick $(if $(GATE),--gate '$(GATE)',)

repro-full: deps
	@$(MAKE) --no-print-directory build
	@sh scripts/repro --profile full $(if $(GATE),--gate '$(GATE)',)

test: deps-test
	@$(MAKE) --no-print-directory build
	@sh scripts/runtests tests

check: deps-test
	@$(MAKE) --no-print-directory build
	@sh scripts/check $(if $(RUN),--run '$(RUN)',)

bench: deps-test
	@$(MAKE) --no-print-directory build
	@sh scripts/bench

sensitivity: deps-test
	@$(MAKE) --no-print-directory build
	@sh scripts/sensitivity

cross:
	@sh scripts/cross

lint:
	@sh scripts/lint

install: build
	mkdir -p $(DESTDIR)$(PREFIX)/libexec/execlag
	cp $(PROGS) $(DESTDIR)$(PREFIX)/libexec/execlag/

uninstall:
	rm -rf $(DESTDIR)$(PREFIX)/libexec/execlag

clean:
	rm -rf $(BIN)
