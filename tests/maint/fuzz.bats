#!/usr/bin/env bats
# make fuzz (scripts/tool/fuzz): bad settings refused, a machine without AFL++
# skipped with one line, and each harness builds and runs.

load ../test_helper/common-setup

setup() {
	_common_setup
	T="$BATS_TEST_TMPDIR"
}

@test "make fuzz refuses a FUZZ_SECONDS that is not a whole number of seconds, in one line, exit 2" {
	for v in abc 0 -5 1.5 "1 2" 007; do
		run --separate-stderr make -s --no-print-directory -C "$ROOT" fuzz FUZZ_SECONDS="$v"
		[ "$status" -ne 0 ] || fail "FUZZ_SECONDS='$v' accepted"
		assert_equal "${#stderr_lines[@]}" 2 # the line, and make's own
		assert_equal "${stderr_lines[0]}" "fuzz: FUZZ_SECONDS must be a whole number of seconds >= 1, not '$v'"
	done
}

@test "scripts/tool/fuzz refuses an unknown reader, naming the readers" {
	run --separate-stderr sh "$ROOT/scripts/tool/fuzz" bogus
	assert_equal "$status" 2
	assert_equal "$stderr" "fuzz: unknown reader 'bogus' (readers: manifest samples runjson aggregate)"
}

@test "without AFL++ and without apt-get, make fuzz skips with one line and exit 0" {
	path_without "$T/bin" afl-fuzz afl-clang-fast apt-get
	run --separate-stderr env PATH="$T/bin" sh "$ROOT/scripts/tool/fuzz" manifest
	assert_success
	assert_output "fuzz: skipped: AFL++ is not installed (Debian: apt-get install afl++; macOS: brew install afl++)"
}

@test "a second of fuzzing the manifest reader: the harness builds, runs from the fixtures, finds nothing" {
	command -v afl-fuzz >/dev/null 2>&1 && command -v afl-clang-fast >/dev/null 2>&1 ||
		skip "AFL++ is not installed (make fuzz installs it: apt-get install afl++)"
	run env FUZZ_SECONDS=1 sh "$ROOT/scripts/tool/fuzz" manifest
	assert_success
	assert_line --regexp '^fuzz: manifest: [0-9]+ executions in 1 s, [0-9]+ inputs in the corpus, 0 crashes, [0-9]+ hangs$'
}
