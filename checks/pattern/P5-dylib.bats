#!/usr/bin/env bats
# P5: a freshly made library pays the penalty when a host opens it.
load lib

setup() { pattern_setup; }

@test "P5 dylib penalty: first dlopen of a new library vs the repeat" {
	require_cases dylib
	require_expectation
	expected_v dylib # EXPECTED: its case file's expect_macos, expect_linux
	say "P5 dylib penalty — $CONTEXT_TEXT; expected: $EXPECTED"
	expect_verdict dylib "$EXPECTED"
}
