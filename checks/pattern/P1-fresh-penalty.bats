#!/usr/bin/env bats
# P1: a freshly made executable and script pay a penalty on their first launch.
load lib

setup() { pattern_setup; }

@test "P1 fresh penalty: first launch of a new exe and script vs the repeat" {
	require_cases exe script
	require_expectation
	want=$(penalty_expected)
	say "P1 fresh penalty — $(context_text); expected: $want"
	# each case's expectation is its case file's (expect_macos, expect_linux)
	expect_verdict exe "$(expected exe)"
	expect_verdict script "$(expected script)"
}
