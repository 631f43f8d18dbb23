#!/usr/bin/env bats
# Exercise 1 (docs/workshop.md): the /tmp/test.sh reproducer, made
# repeatable — a new #! script launched directly pays on its first launch.
load ../pattern/lib

setup() { pattern_setup; }

@test "E1 new script: the first launch of a fresh ./x.sh vs its repeat" {
	require_cases script
	require_expectation # WANT: slowdown where new programs are checked, else none
	say "E1 new script — $CONTEXT_TEXT; expected: $WANT"
	expect_verdict script "$WANT"
}
