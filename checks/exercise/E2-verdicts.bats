#!/usr/bin/env bats
# Exercise 2 (docs/workshop.md): reading the report — every case of the run
# has a verdict that decides (slowdown or none), with its numbers.
load ../pattern/lib

setup() { pattern_setup; }

@test "E2 verdicts: every case of the run is decided, slowdown or none" {
	local c bad=0
	say "E2 verdicts — $CONTEXT_TEXT; expected: no case inconclusive"
	for c in $(f 'cases/*/name'); do
		verdict_v "$c"
		numbers_v "$c"
		if [ "$VERDICT" = inconclusive ]; then
			say "  $NUMBERS — $(f "cases/$c/reason")"
			bad=1
		else
			say "  $NUMBERS"
		fi
	done
	[ "$bad" = 0 ] || say "  an inconclusive case needs more launches: make repro COUNT=40"
	[ "$bad" = 0 ]
}
