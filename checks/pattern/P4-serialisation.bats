#!/usr/bin/env bats
# P4: first launches are assessed one at a time, so with T threads they
# queue: the penalty grows towards a queue's T x L - u instead of staying at
# one check's L (docs/method.md).
load lib

setup() { pattern_setup; }

# max_threads RUN.JSON: the most threads exe was measured at in class all
max_threads() {
	field "$1" 'cases/exe/scaling/class=all/threads' | awk '$1 > m { m = $1 } END { print m ? m : 1 }'
}

# several_threads_hint: where this run's results folder holds a newer or
# older run of exe at several thread counts, the command that checks it
several_threads_hint() {
	local d best="" t tag
	for d in "$(dirname "$(dirname "$J")")"/*/; do
		[ -f "$d/run.json" ] && [ "$d" != "$(dirname "$J")/" ] || continue
		t=$(max_threads "$d/run.json" 2>/dev/null) || continue
		[ "${t:-1}" -gt 1 ] && best=${d%/}
	done
	[ -n "$best" ] || return 0
	# shellcheck source=../../scripts/lib/conditions
	. "$ROOT/scripts/lib/conditions"
	tag=$(condition "$best/conditions.txt" run.tag)
	case $tag in '' | none) tag=$best ;; esac
	printf '; check a run with several: make check EXERCISE=4 RUN=%s' "$tag"
}

@test "P4 serialisation: with more threads first launches queue on one checker" {
	require_cases exe
	tmax=$(max_threads "$J")
	[ "$tmax" -gt 1 ] || skip "not applicable: the run measured only one thread count$(several_threads_hint)"
	case $CONTEXT in
	gate|sim)
		workers=$(checker workers)
		if [ "$workers" = 1 ]; then want=serialised
		elif [ "$workers" -ge "$tmax" ]; then want=parallel
		else skip "not applicable: $([ "$CONTEXT" = sim ] && echo model || echo gate) workers $workers between 1 and T=$tmax"
		fi ;;
	macos) want=serialised ;; # evidence.md §2: "Is it serialized? Yes, per all sources found"
	*) skip "not applicable: no first-launch penalty expected to serialise ($(context_text))" ;;
	esac
	got=$(f cases/exe/serialisation)
	why=$(f cases/exe/serialisation_reason)
	say "P4 serialisation — $(context_text); expected: $want, measured: $got ($why)"
	assert_equal "$(verdict exe)" slowdown
	assert_equal "$got" "$want"
}
