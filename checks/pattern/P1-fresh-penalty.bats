#!/usr/bin/env bats
# P1: a freshly made executable and script pay a penalty on their first launch.
load lib

setup() { pattern_setup; }

@test "P1 fresh penalty: first launch of a new exe and script vs the repeat" {
	require_cases exe script
	require_expectation # WANT: slowdown where new programs are checked, else none
	say "P1 fresh penalty — $CONTEXT_TEXT; expected: $WANT"
	# each case's expectation is its case file's (expect_macos, expect_linux)
	expect_case_verdict exe
	expect_case_verdict script
}
