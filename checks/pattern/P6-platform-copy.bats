#!/usr/bin/env bats
# P6: a copy of a platform binary (/bin/echo) costs little or nothing on its
# first launch, next to a freshly built executable.
load lib

setup() { pattern_setup; }

@test "P6 platform copy: a copy of /bin/echo is cheap next to a new exe" {
	require_cases system-copy exe
	case $CONTEXT in
	control|macos-exempt|gate-exempt|sim-exempt)
		say "P6 platform copy — $CONTEXT_TEXT; expected: none"
		expect_verdict system-copy none ;;
	macos)
		# "small or none": not a slowdown, or under a quarter of exe's penalty
		sys=$(f --or 0 cases/system-copy/penalty_ms/median)
		exe=$(f --or 0 cases/exe/penalty_ms/median)
		say "P6 platform copy — $CONTEXT_TEXT; expected: system-copy small or none next to exe"
		numbers_v system-copy; say "  $NUMBERS"
		numbers_v exe; say "  $NUMBERS"
		verdict_v system-copy
		[ "$VERDICT" != slowdown ] || awk -v s="$sys" -v e="$exe" 'BEGIN { exit !(s < 0.25 * e) }' ;;
	gate) skip "not applicable: the calibration gate holds every new file alike; it models no platform signature" ;;
	sim) skip "not applicable: the simulator holds every new file alike; it models no platform signature ($CONTEXT_TEXT)" ;;
	*) skip "not applicable: no expectation for $CONTEXT_TEXT" ;;
	esac
}
