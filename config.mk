# execlag's build settings: what a user may change, here or on make's
# command line (make CC=clang, make install PREFIX=~/.local).  The Makefile
# includes this first.

# make install: $(DESTDIR)$(PREFIX)/bin/execlag and the kit it runs in
# $(DESTDIR)$(PREFIX)/libexec/execlag/ (a leading ~/ is the home folder)
PREFIX ?= /usr/local
DESTDIR ?=

# the compiler, its flags, and the archiver of micro/bin/libexeclag.a.  CC
# may hold arguments (CC='zig cc'); CC, CFLAGS, LDFLAGS and AR are commands
# and flags, as in any Makefile.
CC ?= cc
CFLAGS ?= -O2 -g
LDFLAGS ?=
AR ?= ar

# SANITIZE=1: every program but tiny built with AddressSanitizer and
# UndefinedBehaviorSanitizer (make test SANITIZE=1)
SANITIZE ?=

# jansson: pkg-config's where it knows jansson (apt, Homebrew), else the
# static library scripts/tool/jansson builds from the pinned source into
# .cache/jansson (a Mac without Homebrew, Linux without root).  Each value
# is worked out once, on its first use (a make that compiles nothing runs no
# pkg-config); JANSSON_FROM=local, or JANSSON_CFLAGS and JANSSON_LIBS
# given, choose for it.  The value worked out is kept in a variable of its
# own (jansson.*), never by the variable redefining itself while it is
# expanded: make 3.81 (the Mac's) then reads the freed old value, which
# once the heap is laid out otherwise is "unterminated variable reference".
PKG_CONFIG ?= pkg-config
JANSSON_LOCAL  = .cache/jansson
JANSSON_FROM   = $(if $(jansson.from.done),,$(eval jansson.from.done := 1)$(eval jansson.from := $(shell \
                 if $(PKG_CONFIG) --exists jansson 2>/dev/null; then echo pkg-config; \
                 elif [ -f $(JANSSON_LOCAL)/lib/libjansson.a ]; then echo local; fi)))$(jansson.from)
JANSSON_CFLAGS = $(if $(jansson.cflags.done),,$(eval jansson.cflags.done := 1)$(eval jansson.cflags := \
                 $(if $(filter local,$(JANSSON_FROM)),-I$(JANSSON_LOCAL)/include, \
                 $(shell $(PKG_CONFIG) --cflags jansson 2>/dev/null))))$(jansson.cflags)
JANSSON_LIBS   = $(if $(jansson.libs.done),,$(eval jansson.libs.done := 1)$(eval jansson.libs := \
                 $(if $(filter local,$(JANSSON_FROM)),$(JANSSON_LOCAL)/lib/libjansson.a, \
                 $(shell $(PKG_CONFIG) --libs jansson 2>/dev/null || echo -ljansson))))$(jansson.libs)
