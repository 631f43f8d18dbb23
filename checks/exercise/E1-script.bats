#!/usr/bin/env bats
# Exercise 1 (docs/workshop.md): the /tmp/test.sh reproducer, made
# repeatable — a new #! script launched directly pays on its first launch.
load ../pattern/lib

setup() { pattern_setup; }

@test "E1 new script: the first launch of a fresh ./x.sh vs its repeat" {
	require_cases script
	require_expectation
	want=$(penalty_expected)
	say "E1 new script — $(context_text); expected: $want"
	expect_verdict script "$want"
}
