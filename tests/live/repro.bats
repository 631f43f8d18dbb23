#!/usr/bin/env bats
# scripts/repro's quick profile on this (Linux: control) machine, whose
# verdicts come from real launches: no case a slowdown (none, or
# inconclusive where load leaves the interval across the floor).  Refusals,
# interrupts and cleanup are make test's (tests/repro.bats).

load ../test_helper/common-setup

setup_file() {
	make -C "$BATS_TEST_DIRNAME/../.." -s build >/dev/null
}

setup() {
	_common_setup
	_run_folders_setup
}

@test "the quick profile on this Linux control machine finds no penalty in any case" {
	[ "$(uname -s)" = Linux ] || skip "the no-penalty control applies to plain Linux"
	run sh "$ROOT/scripts/repro" --profile quick
	assert_success
	run_dir=$(find "$D/results" -mindepth 1 -maxdepth 1 -type d)
	[ -f "$run_dir/run.json" ]
	[ -f "$run_dir/report.md" ]
	assert_equal "$(find "$D/tmp" -mindepth 1 | wc -l | tr -d ' ')" 0
	# every case ran, and none is called a slowdown: there is none to find
	# here, so a slowdown would be a wrong definite verdict.  Where load
	# leaves an interval across the floor the verdict is inconclusive,
	# which is honest (reported, not failed: a busy CI machine gives it)
	echo "# verdicts: $(jq -r '[.cases[] | "\(.name) \(.verdict)"] | join(", ")' "$run_dir/run.json")" >&3
	assert_equal "$(jq '[.cases[] | select(.verdict != "none" and .verdict != "inconclusive")] | length' "$run_dir/run.json")" 0
	# (the cases that run by default on Linux, by the case files' one
	# reader: the placements of make remedies and the quarantined case run
	# only when named; the suite case has its own block)
	. "$ROOT/scripts/lib/cases"
	expected=0
	for f in "$ROOT"/cases/*.case; do
		c=${f##*/} c=${c%.case}
		[ "$c" != suite ] || continue
		case_val "$ROOT/cases" "$c" default
		[ "$_cv" != no ] || continue
		case_val "$ROOT/cases" "$c" platforms
		case " $_cv " in *" any "* | *" linux "*) expected=$((expected + 1)) ;; esac
	done
	[ "$expected" -ge 6 ]
	assert_equal "$(jq '.cases | length' "$run_dir/run.json")" "$expected"
	# the suite case has its own block, with no measurable first-launch cost
	assert_equal "$(jq '[.suite.runs[] | select(.verdict == "slowdown")] | length' "$run_dir/run.json")" 0
	assert_equal "$(jq '.suite.runs | length > 0' "$run_dir/run.json")" true
	# and the run.json it left validates against the documented schema
	why=$(schema_skip_reason)
	[ -n "$why" ] || run -0 validate_run_json "$run_dir/run.json"
}
