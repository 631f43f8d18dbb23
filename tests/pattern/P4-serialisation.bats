#!/usr/bin/env bats
# P4: first launches are assessed one at a time, so with T threads they
# queue: the penalty grows towards a queue's T x L - u instead of staying at
# one check's L (docs/method.md).
load lib

setup() { pattern_setup; }

@test "P4 serialisation: with more threads first launches queue on one checker" {
	require_cases exe
	tmax=$(jq -r '[.cases[] | select(.name == "exe") | .scaling[] | select(.class == "all") | .threads] | max // 1' "$J")
	[ "$tmax" -gt 1 ] || skip "not applicable: the run measured only one thread count"
	case $CONTEXT in
	gate)
		workers=$(cond gate.workers)
		if [ "$workers" = 1 ]; then want=serialised
		elif [ "$workers" -ge "$tmax" ]; then want=parallel
		else skip "not applicable: gate workers $workers between 1 and T=$tmax"
		fi ;;
	macos) want=serialised ;; # evidence.md §2: "Is it serialized? Yes, per all sources found"
	*) skip "not applicable: no first-launch penalty expected to serialise ($(context_text))" ;;
	esac
	got=$(jq -r '.cases[] | select(.name == "exe") | .serialisation' "$J")
	why=$(jq -r '.cases[] | select(.name == "exe") | .serialisation_reason' "$J")
	say "P4 serialisation — $(context_text); expected: $want, measured: $got ($why)"
	assert_equal "$(verdict exe)" slowdown
	assert_equal "$got" "$want"
}
