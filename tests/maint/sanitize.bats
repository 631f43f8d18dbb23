#!/usr/bin/env bats
# make test SANITIZE=1: the programs built with AddressSanitizer and
# UndefinedBehaviorSanitizer (tiny never), no stale build across a change of
# flags, and a sanitizer finding fails the test run.

load ../test_helper/common-setup

setup() {
	_common_setup
	T="$BATS_TEST_TMPDIR"
}

# sanitized FILE: the ASan and UBSan runtimes are linked into FILE
sanitized() {
	nm "$1" | grep -q '__asan_init' && nm "$1" | grep -q '__ubsan_handle'
}

# Every program but tiny takes the same flags ($(BIN)/.flags), so the
# smallest, spawnloop, stands for them, linked with an archive of only the
# units it uses (LIBSRC): the whole archive, sanitized, takes a minute of
# CPU to build here, and these tests build it five times.  Those units are
# read off the kit's own build (micro/bin/obj, which make test builds
# first): the members the linker would take from the archive, spawnloop's
# undefined symbols followed to the objects that define them (nm:
# tests/test_helper/libsrc, deps.bats' too);
# where that cannot be read, micro/lib's units, all of them.
setup_file() {
	local root="$BATS_TEST_DIRNAME/../.."
	LIBSRC=$(cd "$root" && sh tests/test_helper/libsrc spawnloop) || LIBSRC=""
	[ -n "$LIBSRC" ] || LIBSRC=$(cd "$root" && echo micro/lib/*.c)
	export LIBSRC
}

@test "SANITIZE=1 builds with ASan and UBSan, tiny without; a plain build then rebuilds without, and back" {
	need_tool nm binutils
	run make -s -C "$ROOT" BIN="$T/bin" LIBSRC="$LIBSRC" SANITIZE=1 "$T/bin/spawnloop" "$T/bin/tiny"
	assert_success
	sanitized "$T/bin/spawnloop" || fail "SANITIZE=1 built spawnloop without the sanitizers"
	! nm "$T/bin/tiny" 2>/dev/null | grep -q '__asan_init' || fail "tiny, the payload, is sanitized"

	run make -s -C "$ROOT" BIN="$T/bin" LIBSRC="$LIBSRC" SANITIZE= "$T/bin/spawnloop"
	assert_success
	! sanitized "$T/bin/spawnloop" || fail "a plain build after SANITIZE=1 left the sanitized spawnloop"

	run make -s -C "$ROOT" BIN="$T/bin" LIBSRC="$LIBSRC" SANITIZE=1 "$T/bin/spawnloop"
	assert_success
	sanitized "$T/bin/spawnloop" || fail "SANITIZE=1 after a plain build left the plain spawnloop"
}

@test "the same flags twice: nothing is rebuilt" {
	make -s -C "$ROOT" BIN="$T/bin" LIBSRC="$LIBSRC" SANITIZE= "$T/bin/spawnloop"
	run make -C "$ROOT" --no-print-directory BIN="$T/bin" LIBSRC="$LIBSRC" SANITIZE= "$T/bin/spawnloop"
	assert_success
	refute_output --partial "spawnloop.c"
	# other flags: rebuilt
	run make -C "$ROOT" --no-print-directory BIN="$T/bin" LIBSRC="$LIBSRC" SANITIZE= CFLAGS="-O1" "$T/bin/spawnloop"
	assert_success
	assert_output --partial "spawnloop.c"
}

@test "make test SANITIZE=1: a finding in a process whose status is ignored fails the run, shown in full" {
	need_tool cc "Xcode's command line tools"
	# a heap overflow in a program that exits 0 all the same
	printf '#include <stdlib.h>\nint main(int c, char **v) { char *p = malloc(4); p[c + 4] = 1; free(p); return 0; }\n' >"$T/bug.c"
	cc -fsanitize=address -g -o "$T/bug" "$T/bug.c" || skip "cc cannot build with AddressSanitizer here"
	mkdir "$T/t"
	printf '@test "ignores a status" {\n\t"%s" || true\n}\n' "$T/bug" >"$T/t/bug.bats"
	mkdir "$T/tmp"
	run env SANITIZE=1 TMPDIR="$T/tmp" sh "$ROOT/scripts/tool/runtests" "$T/t/bug.bats"
	assert_failure
	assert_line --partial "heap-buffer-overflow"
	assert_line "1 passed, 1 failed, 0 skipped"
	assert_equal "$(ls -A "$T/tmp")" ""
	# a plain run: nobody reads the report on stderr, the test passes
	# (without the options of a sanitized run around this one)
	run env -u ASAN_OPTIONS -u UBSAN_OPTIONS SANITIZE= sh "$ROOT/scripts/tool/runtests" "$T/t/bug.bats"
	assert_success
	assert_line "1 passed, 0 failed, 0 skipped"
	# the run's own time, then the summary last (.ci/run reads it)
	assert_equal "${lines[${#lines[@]} - 1]}" "1 passed, 0 failed, 0 skipped"
	[[ "${lines[${#lines[@]} - 2]}" =~ ^#\ runtests:\ [0-9]+\ min\ [0-9]+\ s$ ]] ||
		fail "no time before the summary: ${lines[${#lines[@]} - 2]}"
}
