#!/usr/bin/env bats
# P4: first launches are assessed one at a time, so with T threads they
# queue: the penalty grows towards a queue's T x L - u instead of staying at
# one check's L (docs/method.md).
load lib

setup() { pattern_setup; }

# max_threads RUN.JSON: the most threads exe was measured at in class all
# (whole numbers compared here, anything else by awk, as before)
max_threads() {
	local v t m=0
	v=$(field "$1" 'cases/exe/scaling/class=all/threads') || :
	# (a value with a leading 0 or of ten digits or more goes to awk too)
	case $v in
	*[!0-9$'\n']* | 0[0-9]* | *$'\n'0[0-9]* | *[0-9][0-9][0-9][0-9][0-9][0-9][0-9][0-9][0-9][0-9]*)
		printf '%s\n' "$v" | awk '$1 > m { m = $1 } END { print m ? m : 1 }'
		return ;;
	esac
	for t in $v; do
		[ "$t" -le "$m" ] || m=$t
	done
	[ "$m" != 0 ] || m=1
	echo "$m"
}

# several_threads_hint: where this run's results folder holds a newer or
# older run of exe at several thread counts, the command that checks it
# (the newest such run: the folders' names start with the time they were
# made, so they are walked from the last)
several_threads_hint() {
	local d best="" t tag here i
	dirname_v "$J"; here=$DIRNAME
	dirname_v "$here"
	set -- "$DIRNAME"/*/
	i=$#
	while [ "$i" -gt 0 ]; do
		eval "d=\${$i}"
		i=$((i - 1))
		[ -f "$d/run.json" ] && [ "$d" != "$here/" ] || continue
		t=$(max_threads "$d/run.json" 2>/dev/null) || continue
		if [ "${t:-1}" -gt 1 ]; then
			best=${d%/}
			break
		fi
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
		checker_v workers; workers=$CHECKER
		if [ "$workers" = 1 ]; then want=serialised
		elif [ "$workers" -ge "$tmax" ]; then want=parallel
		else skip "not applicable: $([ "$CONTEXT" = sim ] && echo model || echo gate) workers $workers between 1 and T=$tmax"
		fi ;;
	macos) want=serialised ;; # evidence.md §2: "Is it serialized? Yes, per all sources found"
	*) skip "not applicable: no first-launch penalty expected to serialise ($CONTEXT_TEXT)" ;;
	esac
	got=$(f cases/exe/serialisation)
	why=$(f cases/exe/serialisation_reason)
	say "P4 serialisation — $CONTEXT_TEXT; expected: $want, measured: $got ($why)"
	verdict_v exe
	assert_equal "$VERDICT" slowdown
	assert_equal "$got" "$want"
}
