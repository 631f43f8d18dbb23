#!/usr/bin/env bats
# P2: a script that is only read by an interpreter (`sh x.sh`) is not
# assessed, while the same script executed directly (`./x.sh`) is.
load lib

setup() { pattern_setup; }

@test "P2 interpreter bypass: sh x.sh has no penalty where ./x.sh has one" {
	require_cases script script-via-sh
	require_expectation
	# each case's expectation is its case file's (expect_macos, expect_linux)
	expected_v script; want=$EXPECTED
	expected_v script-via-sh; bypass=$EXPECTED
	say "P2 interpreter bypass — $CONTEXT_TEXT; expected: script $want, script-via-sh $bypass"
	expect_verdict script "$want"
	expect_verdict script-via-sh "$bypass"
}
