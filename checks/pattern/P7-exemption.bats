#!/usr/bin/env bats
# P7: with the launcher exempt (a terminal authorised as a Developer Tool;
# the gate's or the simulator's exempt=1) no case pays a first-launch penalty.
load lib

setup() { pattern_setup; }

@test "P7 exemption: with the launcher exempt no case has a penalty" {
	case $CONTEXT in
	gate-exempt|macos-exempt|sim-exempt) ;;
	*) skip "not applicable: the launcher is not exempt ($CONTEXT_TEXT)" ;;
	esac
	say "P7 exemption — $CONTEXT_TEXT; expected: none in every case"
	bad=0
	for c in $(f 'cases/*/name'); do
		expect_verdict "$c" none || bad=1
	done
	[ "$bad" = 0 ]
}
