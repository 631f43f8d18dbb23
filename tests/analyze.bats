#!/usr/bin/env bats
# micro/analyze: statistics, verdicts, outputs and refusals, checked against
# fixture run folders whose answers were worked out by hand
# (tests/fixtures/analyze/README.md shows the arithmetic).

load test_helper/common-setup
load test_helper/jqbatch
load test_helper/quickrun

setup() {
	_common_setup
	[ -x "$BIN/analyze" ] || fail "$BIN/analyze is missing: run 'make micro/bin/analyze'"
}

# analyze_fixture NAME [ARGS…]: analyze a scratch copy of fixture NAME, so
# the committed fixtures never gain a run.json.  Sets RUN and JSON.
analyze_fixture() {
	kit_untraced jq_flush
	RUN="$BATS_TEST_TMPDIR/$1"
	# (a test may analyze a fixture twice: a fresh copy each time)
	[ ! -e "$RUN" ] || rm -rf "$RUN"
	cp -R "$FIXTURES/analyze/$1" "$RUN"
	JSON="$RUN/run.json"
	shift
	run_sep "$BIN/analyze" --run "$RUN" "$@"
}

# The fixtures most tests read, analyzed once for the file (an analysis
# and its copy of the fixture are a process each, for some 40 tests): each
# must analyze cleanly, as analyze_ok asserts, and its terminal table is
# kept in NAME.out.  Tests read them and never change them (analyze_ok
# makes a test's own copy).
setup_file() {
	local root="$BATS_TEST_DIRNAME/.." f rc
	for f in verdicts scaling key-inode; do
		cp -R "$root/tests/fixtures/analyze/$f" "$BATS_FILE_TMPDIR/$f"
		rc=0
		"$root/micro/bin/analyze" --run "$BATS_FILE_TMPDIR/$f" >"$BATS_FILE_TMPDIR/$f.out" 2>"$BATS_FILE_TMPDIR/$f.err" || rc=$?
		[ "$rc" = 0 ] && [ ! -s "$BATS_FILE_TMPDIR/$f.err" ] || {
			echo "analyze of $f: status $rc, stderr: $(cat "$BATS_FILE_TMPDIR/$f.err")" >&2
			return 1
		}
	done
}

# analyzed NAME: RUN and JSON of setup_file's analysis of fixture NAME
# (verdicts, scaling, key-inode), to read only (so the queue of jq_is
# stands: a group of tests of one fixture is asked of it by one jq)
analyzed() {
	RUN="$BATS_FILE_TMPDIR/$1"
	JSON="$RUN/run.json"
}

# analyzed_output NAME: status, output and lines as analyze_ok's run set
# them, from that analysis (read as test_helper/quickrun reads an output:
# no cat)
analyzed_output() {
	analyzed "$1"
	status=0 output=""
	IFS= read -r -d '' output <"$RUN.out" || true
	while [ "${output%$'\n'}" != "$output" ]; do output=${output%$'\n'}; done
	IFS=$'\n' read -d '' -r -a lines <<<"$output" || true
}

# A fixture that must analyze cleanly.
analyze_ok() {
	analyze_fixture "$@"
	assert_success
	[ -z "$stderr" ] || fail "unexpected stderr: $stderr"
}

# jq_is FILTER WANT, jq_near FILTER WANT: test_helper/jqbatch.bash, asked by
# one jq a group; what is left is asked at the test's end
teardown() { kit_untraced jq_flush; }

# A case X in a filter is written out, .cases[] | select(.name == "X"), and
# its only (or headline) config as that | .configs[0]: a function that
# printed them was a $( ), a fork, each of some 150 times.

assert_no_temporaries() {
	local left
	left="$(find "$RUN" -name '*.tmp.*')"
	[ -z "$left" ] || fail "temporary files left: $left"
}

# ---- usage and outputs --------------------------------------------------------

# md_has FILE KIND TEXT: FILE has a line that is TEXT (KIND =, as grep -qx
# with TEXT fixed), begins with it (^), or holds it (~, as grep -qF), else
# the test fails; by the shell's read of the file (a grep each was a
# process each)
md_has() {
	local t=""
	IFS= read -r -d '' t <"$1" || true
	t=$'\n'$t$'\n'
	case $2 in
	=) [[ $t == *$'\n'"$3"$'\n'* ]] ;;
	^) [[ $t == *$'\n'"$3"* ]] ;;
	'~') [[ $t == *"$3"* ]] ;;
	*) false ;;
	esac || fail "$1 has no line $2 '$3'"
}

@test "usage and outputs: --help, no --run, run.json and report.md, names, run_id, --quiet, the table" {
	# (was: "usage: --help prints the usage and exits 0; no --run is an error, exit 2, one line")
	# -- --help prints the usage and exits 0
	run_both "$BIN/analyze" --help
	assert_success
	kit_untraced assert_output --partial "usage: analyze --run DIR"
	# -- no --run is a usage error: exit 2, one line
	run_sep "$BIN/analyze"
	assert_failure 2
	[ "${#stderr_lines[@]}" -eq 1 ]
	[[ "$stderr" == "analyze: "* ]] || fail "stderr: $stderr"
	# (was: "a run writes run.json and report.md and leaves no temporary file")
	analyzed verdicts
	[ -s "$RUN/run.json" ]
	[ -s "$RUN/report.md" ]
	jq -e . "$RUN/run.json" >/dev/null
	assert_no_temporaries
	# (was: "run.json names the schema, the kit version and the run folder")
	analyzed key-inode
	kit_untraced jq_is .schema execlag-run
	kit_untraced jq_is .schema_version 1
	# the version analyze was built with is the kit's, as the scripts read it
	. "$ROOT/scripts/lib/version"
	kit_untraced jq_is .kit_version "$(kit_version "$ROOT")"
	kit_untraced jq_is .run_id key-inode
	# (was: "run_id is the folder's base name even with a trailing slash")
	RUN="$BATS_TEST_TMPDIR/20250101T000000Z-abc123"
	cp -R "$FIXTURES/analyze/key-inode" "$RUN"
	JSON="$RUN/run.json"
	run_both "$BIN/analyze" --run "$RUN/" --quiet
	assert_success
	kit_untraced jq_is .run_id 20250101T000000Z-abc123
	# (was: "--quiet writes the files and prints nothing")
	analyze_ok verdicts --quiet
	kit_untraced assert_output ""
	[ -s "$RUN/run.json" ]
	# (was: "the terminal table has one aligned row per config and a line per case")
	analyzed_output verdicts
	kit_untraced assert_line --index 0 --regexp '^case +T +class +first median ms +repeat median ms +penalty ms \[95% CI\] +x unloaded +verdict$'
	local col_header col_row
	col_header="$(printf '%s\n' "${lines[0]}" | awk '{ print index($0, "verdict") }')"
	col_row="$(printf '%s\n' "$output" | awk '/^paired / { print index($0, "slowdown") }')"
	[ "$col_header" = "$col_row" ] || fail "verdict column at $col_header, row at $col_row"
	kit_untraced assert_line --regexp '^paired +1 +all +24\.00 +3\.50 +19\.50 \[15\.00, 24\.00\] +8\.09 +slowdown$'
	kit_untraced assert_line "paired: slowdown — interval [15.00, 24.00] ms above the 1 ms floor"
	kit_untraced assert_line "scanner: slowdown — interval [40.00, 45.00] ms above the 22.81 ms floor (0.25 x an unloaded launch of 91.25 ms)"
	kit_untraced assert_line "none: none — interval [0.05, 0.30] ms below the 1 ms floor"
	kit_untraced assert_line "cache key: undetermined — needs exe, exe-hardlink, exe-copy and exe-rewrite"
}

# ---- conditions and thresholds ---------------------------------------------------

# ---- statistics -------------------------------------------------------------------

@test "the verdicts fixture: conditions, thresholds, statistics, verdicts, failures, pass lines, no NaN" {
	# (was: "conditions and thresholds; statistics: median, p90, pairs, intervals of 20 and 6 pairs, ratio")
	# (was: "conditions as strings, the last value wins, comments skipped; the thresholds in run.json and report")
	# conditions are kept as strings, last value wins, comments skipped; the thresholds are in run.json and the report
	# -- conditions are kept as strings, last value wins, comments skipped
	analyzed verdicts
	kit_untraced jq_is .conditions.profile quick
	kit_untraced jq_is .conditions.note 'a=b | c'
	kit_untraced jq_is '.conditions.os' Linux
	kit_untraced jq_is '[.conditions[] | type] | unique | join(",")' string
	kit_untraced jq_is '.conditions | keys | map(select(startswith("#"))) | length' 0
	# -- the thresholds are written into run.json and printed in the report
	analyzed verdicts
	kit_untraced jq_near .thresholds.penalty_floor_ms 1.0
	kit_untraced jq_near .thresholds.floor_share 0.25
	kit_untraced jq_is .thresholds.ratio_floor null
	kit_untraced jq_near .thresholds.confidence 0.95
	kit_untraced jq_near .thresholds.serial_scaling_max 1.25
	kit_untraced jq_is .thresholds.min_pairs 6
	md_has "$RUN/report.md" = '| penalty floor | 1 ms |'
	md_has "$RUN/report.md" '~' "| floor's share of an unloaded launch (the floor is the larger of the penalty floor and this share of q1, the repeats' lower quartile) | 0.25 |"
	md_has "$RUN/report.md" = '| confidence of the interval | 95% |'
	# (was: "statistics: median and p90, pairs by index, the intervals of n=20 and n=6 pairs, ratio, relative")
	# statistics: median and p90 (n=7; n=6, a failed launch left out), pairs by index, the intervals of n=20 and n=6 pairs, ratio, relative
	# -- median and p90 of an odd number of samples (n=7)
	analyzed verdicts
	# first: 1 2 3 4 5 10 20 -> median 4; p90 at h=5.4: 10 + 0.4*(20-10) = 14
	kit_untraced jq_is ".cases[] | select(.name == \"median\") | .configs[0].first.n_ok" 7
	kit_untraced jq_near ".cases[] | select(.name == \"median\") | .configs[0].first.median_ms" 4
	kit_untraced jq_near ".cases[] | select(.name == \"median\") | .configs[0].first.p90_ms" 14
	# -- median and p90 of an even number, a failed launch left out (n=6)
	analyzed verdicts
	# repeat OK: 1 1.5 2 3 4 8 -> median (2+3)/2; p90 at h=4.5: 4 + 0.5*(8-4) = 6
	kit_untraced jq_is ".cases[] | select(.name == \"median\") | .configs[0].repeat.n_ok" 6
	kit_untraced jq_near ".cases[] | select(.name == \"median\") | .configs[0].repeat.median_ms" 2.5
	kit_untraced jq_near ".cases[] | select(.name == \"median\") | .configs[0].repeat.p90_ms" 6
	# n=20 repeat: 2,3,4,5 five times each -> (3+4)/2; p90 at h=17.1 -> 5
	kit_untraced jq_near ".cases[] | select(.name == \"paired\") | .configs[0].repeat.median_ms" 3.5
	kit_untraced jq_near ".cases[] | select(.name == \"paired\") | .configs[0].repeat.p90_ms" 5
	# -- the penalty pairs launches by index, not by line order
	analyzed verdicts
	# d_i = 10 + (7i mod 20): 10..29 once each -> median (19+20)/2
	kit_untraced jq_is ".cases[] | select(.name == \"paired\") | .configs[0].pairs" 20
	kit_untraced jq_near ".cases[] | select(.name == \"paired\") | .configs[0].penalty_ms.median" 19.5
	# -- n=20 pairs give the interval [d_(6), d_(15)] with coverage 0.9586
	analyzed verdicts
	kit_untraced jq_near ".cases[] | select(.name == \"paired\") | .configs[0].penalty_ms.ci_low" 15
	kit_untraced jq_near ".cases[] | select(.name == \"paired\") | .configs[0].penalty_ms.ci_high" 24
	# 1 - 2*P(B<=5), B~Bin(20,1/2): 1 - 2*21700/2^20
	kit_untraced jq_near ".cases[] | select(.name == \"paired\") | .configs[0].penalty_ms.coverage" 0.9586105
	# -- n=6 pairs, the fewest allowed, give [d_(1), d_(6)] with coverage 1-2/64
	analyzed verdicts
	# d = 2 12 (pair 2 lost) 3 0.5 6 1 -> sorted 0.5 1 2 3 6 12
	kit_untraced jq_is ".cases[] | select(.name == \"median\") | .configs[0].pairs" 6
	kit_untraced jq_near ".cases[] | select(.name == \"median\") | .configs[0].penalty_ms.median" 2.5
	kit_untraced jq_near ".cases[] | select(.name == \"median\") | .configs[0].penalty_ms.ci_low" 0.5
	kit_untraced jq_near ".cases[] | select(.name == \"median\") | .configs[0].penalty_ms.ci_high" 12
	kit_untraced jq_near ".cases[] | select(.name == \"median\") | .configs[0].penalty_ms.coverage" 0.96875
	# -- the ratio is first median over repeat median, and still reported
	analyzed verdicts
	kit_untraced jq_near ".cases[] | select(.name == \"paired\") | .configs[0].first.median_ms" 24
	kit_untraced jq_near ".cases[] | select(.name == \"paired\") | .configs[0].ratio" 6.857142857
	kit_untraced jq_near ".cases[] | select(.name == \"median\") | .configs[0].ratio" 1.6
	# -- relative is the penalty over the repeats' lower quartile, plus one
	analyzed verdicts
	# paired: repeats 2, 3, 4, 5 five times each: lower quartile 2.75;
	# median d 19.5: (2.75 + 19.5) / 2.75
	kit_untraced jq_near ".cases[] | select(.name == \"paired\") | .configs[0].relative" 8.090909
	kit_untraced jq_near ".cases[] | select(.name == \"paired\").relative" 8.090909
	# (was: "verdicts above, below, across the floor, with 5 pairs; failures, pass lines, no NaN or infinity")
	# (was: "verdicts: slowdown above the floor, none below, inconclusive across it or with n=5 pairs")
	# verdicts: slowdown above the floor (1 ms, or a quarter of an unloaded launch), none below, inconclusive across it or with n=5 pairs
	# -- slowdown: interval above the floor
	analyzed verdicts
	kit_untraced jq_is ".cases[] | select(.name == \"paired\").verdict" slowdown
	kit_untraced jq_is ".cases[] | select(.name == \"paired\").reason" "interval [15.00, 24.00] ms above the 1 ms floor"
	# -- slowdown: a plain penalty on long launches, above a quarter of an unloaded one
	analyzed verdicts
	# repeats 90..95: lower quartile 91.25, floor 22.8125; d 40..45: [40, 45];
	# a first launch only 1.47 times an unloaded one, and a slowdown
	kit_untraced jq_near ".cases[] | select(.name == \"scanner\") | .configs[0].unloaded_ms" 91.25
	kit_untraced jq_near ".cases[] | select(.name == \"scanner\").relative" 1.465753
	kit_untraced jq_is ".cases[] | select(.name == \"scanner\").verdict" slowdown
	kit_untraced jq_is ".cases[] | select(.name == \"scanner\").reason" "interval [40.00, 45.00] ms above the 22.81 ms floor (0.25 x an unloaded launch of 91.25 ms)"
	# -- none: interval below the floor
	analyzed verdicts
	kit_untraced jq_is ".cases[] | select(.name == \"none\").verdict" none
	kit_untraced jq_near ".cases[] | select(.name == \"none\") | .configs[0].penalty_ms.ci_low" 0.05
	kit_untraced jq_near ".cases[] | select(.name == \"none\") | .configs[0].penalty_ms.ci_high" 0.3
	kit_untraced jq_is ".cases[] | select(.name == \"none\").reason" "interval [0.05, 0.30] ms below the 1 ms floor"
	# -- inconclusive: the interval straddles the floor
	analyzed verdicts
	kit_untraced jq_is ".cases[] | select(.name == \"median\").verdict" inconclusive
	kit_untraced jq_is ".cases[] | select(.name == \"median\").reason" "interval [0.50, 12.00] ms includes the 1 ms floor"
	# -- inconclusive: above 1 ms, across a quarter of an unloaded launch
	analyzed verdicts
	# medians 30.5 / 22.5; interval [5, 10]
	kit_untraced jq_near ".cases[] | select(.name == \"ratio\").ratio" 1.355556
	kit_untraced jq_near ".cases[] | select(.name == \"ratio\") | .configs[0].penalty_ms.ci_low" 5
	# repeats 20..25: lower quartile 21.25, floor 5.3125; median d 7.5:
	# (21.25 + 7.5) / 21.25
	kit_untraced jq_near ".cases[] | select(.name == \"ratio\").relative" 1.352941
	kit_untraced jq_near ".cases[] | select(.name == \"ratio\") | .configs[0].unloaded_ms" 21.25
	kit_untraced jq_is ".cases[] | select(.name == \"ratio\").verdict" inconclusive
	kit_untraced jq_is ".cases[] | select(.name == \"ratio\").reason" "interval [5.00, 10.00] ms includes the 5.31 ms floor (0.25 x an unloaded launch of 21.25 ms)"
	# -- none: above 1 ms, but below a quarter of an unloaded launch
	analyzed verdicts
	kit_untraced jq_near ".cases[] | select(.name == \"share\") | .configs[0].unloaded_ms" 21.25
	kit_untraced jq_near ".cases[] | select(.name == \"share\") | .configs[0].floor_ms" 5.3125
	kit_untraced jq_near ".cases[] | select(.name == \"share\").floor_ms" 5.3125
	kit_untraced jq_near ".cases[] | select(.name == \"paired\").floor_ms" 1
	kit_untraced jq_is ".cases[] | select(.name == \"share\").verdict" none
	kit_untraced jq_is ".cases[] | select(.name == \"share\").reason" "interval [1.50, 4.00] ms below the 5.31 ms floor (0.25 x an unloaded launch of 21.25 ms)"
	# -- inconclusive: n=5 pairs cannot make a 95% interval, which is null
	analyzed verdicts
	# P(B<=0) = 1/32 > 0.025 for B~Bin(5,1/2): no k qualifies
	kit_untraced jq_is ".cases[] | select(.name == \"few\").verdict" inconclusive
	kit_untraced jq_is ".cases[] | select(.name == \"few\").reason" "too few successful pairs (5) for a 95% interval"
	kit_untraced jq_near ".cases[] | select(.name == \"few\").penalty_ms.median" 70
	kit_untraced jq_is ".cases[] | select(.name == \"few\").penalty_ms.ci_low" null
	kit_untraced jq_is ".cases[] | select(.name == \"few\").penalty_ms.ci_high" null
	kit_untraced jq_is ".cases[] | select(.name == \"few\").penalty_ms.coverage" null
	# (was: "failures (signal 9, an exit 1), pass lines, and no NaN or infinity in run.json")
	# failures (a killed child, signal 9; an exit 1 without a signal name), pass lines, and no NaN or infinity in run.json
	# -- a killed child is a recorded sample (signal 9, SIGKILL), not a crash
	analyzed verdicts
	kit_untraced jq_is ".cases[] | select(.name == \"killed\") | .configs[0].failures.first" 6
	kit_untraced jq_is ".cases[] | select(.name == \"killed\") | .configs[0].failures.repeat" 0
	kit_untraced jq_is ".cases[] | select(.name == \"killed\") | .configs[0].failures.samples | length" 6
	kit_untraced jq_is ".cases[] | select(.name == \"killed\") | .configs[0].failures.samples[0] | [.pass, .index, .exit, .signal, .signal_name, .errno] | @tsv" \
		"$(printf 'first\t0\t-1\t9\tSIGKILL\t0')"
	kit_untraced jq_is ".cases[] | select(.name == \"killed\").verdict" inconclusive
	kit_untraced jq_is ".cases[] | select(.name == \"killed\").reason" "too few successful pairs (0) for a 95% interval"
	kit_untraced jq_is ".cases[] | select(.name == \"killed\").first_median_ms" null
	kit_untraced jq_is ".cases[] | select(.name == \"killed\").ratio" null
	kit_untraced jq_is ".cases[] | select(.name == \"killed\").penalty_ms.median" null
	grep -q 'first #0: exit -1, signal 9 (SIGKILL), errno 0' "$RUN/report.md"
	# -- a launch that exited 1 is a failure without a signal name
	analyzed verdicts
	kit_untraced jq_is ".cases[] | select(.name == \"median\") | .configs[0].failures.repeat" 1
	kit_untraced jq_is ".cases[] | select(.name == \"median\") | .configs[0].failures.samples[0] | [.pass, .index, .exit, .signal, .signal_name] | @tsv" \
		"$(printf 'repeat\t2\t1\t0\t')"
	# -- pass lines give wall time, launches and launches per second
	analyzed verdicts
	kit_untraced jq_near ".cases[] | select(.name == \"paired\") | .configs[0].passes.first.wall_ms" 500
	kit_untraced jq_is ".cases[] | select(.name == \"paired\") | .configs[0].passes.first.launches" 20
	kit_untraced jq_near ".cases[] | select(.name == \"paired\") | .configs[0].passes.first.launches_per_s" 40
	kit_untraced jq_near ".cases[] | select(.name == \"paired\") | .configs[0].passes.repeat.launches_per_s" 250
	# -- no NaN or infinity anywhere in run.json
	analyzed verdicts
	! grep -Eiq ':[[:space:]]*-?(nan|inf)' "$JSON" || fail "NaN or infinity in run.json"
}
# looks_copy LOOKS: the verdicts fixture with paired's 20 pairs as a
# sequential run that launched all 20 (ran to the maximum) under LOOKS.
looks_copy() {
	kit_untraced jq_flush
	RUN="$BATS_TEST_TMPDIR/looks"
	rm -rf "$RUN"
	cp -R "$FIXTURES/analyze/verdicts" "$RUN"
	JSON="$RUN/run.json"
	awk -v l="$1" '{ print } /^meta\tn\t/ { print "meta\tplanned\t20"; print "meta\tlooks\t" l; print "meta\tstopped\tmaximum" }' \
		"$RUN/raw/paired-t1-all.samples.tsv" >"$RUN/s.new" && mv "$RUN/s.new" "$RUN/raw/paired-t1-all.samples.tsv"
	run_sep "$BIN/analyze" --run "$RUN"
	assert_success
}

# expect_paired LOW HIGH REASON: the paired case's interval, and the end of
# its reason (the coverage and the look it ended at)
expect_paired() {
	kit_untraced jq_near ".cases[] | select(.name == \"paired\") | .configs[0].penalty_ms.ci_low" "$1"
	kit_untraced jq_near ".cases[] | select(.name == \"paired\") | .configs[0].penalty_ms.ci_high" "$2"
	# (with the others, by one jq: the reason ends so)
	kit_untraced jq_is ".cases[] | select(.name == \"paired\").reason | endswith(\"($3)\")" true
}

@test "sequential looks: to the maximum, extension planned, extended to 60, past a look, even split" {
	# (was: "sequential to the maximum: the last look gets what earlier looks left, the fixed count's interval")
	# looks 8,12,16,20: 0.05 - (2^-7 + 2^-11 + 2^-15) = 0.04167 at n=20
	# -> still [d_(6), d_(15)] (coverage 0.9586 >= 0.9583), as with no looks
	looks_copy 8,12,16,20
	expect_paired 15 24 "a 95.83% interval: look 4 of 4"
	kit_untraced jq_near ".cases[] | select(.name == \"paired\") | .configs[0].penalty_ms.coverage" 0.9586105
	# an even split would have been 98.75%: [d_(5), d_(16)] = [14, 25]
	# (was: "sequential, extension planned: the last planned look keeps 1% for it, spent there with the slack")
	# the extension spends that 1% and the slack
	# looks 8,12,16,20+40,60, ran to 20: 0.95 + (2^-7 + 2^-11 + 2^-15) + 0.01
	# = 96.83% at n=20 -> [d_(5), d_(16)] = [14, 25] (coverage 0.98818)
	looks_copy 8,12,16,20+40,60
	expect_paired 14 25 "a 96.83% interval: look 4 of 4"
	kit_untraced jq_near ".cases[] | select(.name == \"paired\") | .configs[0].penalty_ms.coverage" 0.9881783
	kit_untraced jq_is ".cases[] | select(.name == \"paired\") | .configs[0].sequential.looks" "8,12,16,20+40,60"
	# the report says what a + means
	grep -qF 'Looks after a + are the extension' "$RUN/report.md"
	# (was: "sequential, extended to 60: the extension's last look has the 1% and what 20's interval left, 97.01%")
	# 60 pairs: the paired fixture's 20 three times over (indices 20..59)
	looks_copy 8,12,16,20+40,60
	awk -F '\t' -v OFS='\t' '$1 == "sample" { print; for (k = 1; k <= 2; k++) { $4 = $4 + 20 * k; print; $4 = $4 - 20 * k } next }
		$1 == "meta" && $2 == "n" { $3 = 60 } { print }' \
		"$RUN/raw/paired-t1-all.samples.tsv" >"$RUN/s.new" && mv "$RUN/s.new" "$RUN/raw/paired-t1-all.samples.tsv"
	rm -f "$JSON"
	run_sep "$BIN/analyze" --run "$RUN"
	assert_success
	kit_untraced jq_is ".cases[] | select(.name == \"paired\") | .configs[0].pairs" 60
	kit_untraced jq_is ".cases[] | select(.name == \"paired\").reason | endswith(\"(a 97.01% interval: look 2 of 2 of the extension, after an interval across the floor at 20)\")" true
	grep -qF -- '- paired T=1 all: 60 artifacts, past the 20 planned: its interval lay across the floor there (looks at 8,12,16,20+40,60), ran to the maximum.' "$RUN/report.md"
	# (was: "sequential, stopped past a look: the interval is that look's, [d_(1), d_(16)]")
	# past a look: a block of T=2 carried the count from the look at 15 to 16
	# the full profile's looks; 16 pairs, stopped at look 2 (15): 1 - 2^-14
	# -> [d_(1), d_(16)]; the last look's 95.79% would give [d_(4), d_(13)]
	looks_copy 8,15,22,29,36,40
	awk -F '\t' -v OFS='\t' '$1 == "sample" && $4 >= 16 { next }
		$1 == "meta" && $2 == "n" { $3 = 16 } $1 == "meta" && $2 == "planned" { $3 = 40 }
		$1 == "meta" && $2 == "stopped" { $3 = "slowdown" } { print }' \
		"$RUN/raw/paired-t1-all.samples.tsv" >"$RUN/s.new" && mv "$RUN/s.new" "$RUN/raw/paired-t1-all.samples.tsv"
	rm -f "$JSON"
	run_sep "$BIN/analyze" --run "$RUN"
	assert_success
	# d_i = 10 + (7i mod 20), i < 16: 10..15, 17..21, 24..28
	kit_untraced jq_is ".cases[] | select(.name == \"paired\") | .configs[0].pairs" 16
	expect_paired 10 28 "a 99.99% interval: look 2 of 6"
	# (was: "sequential: a plan whose early looks would spend half the 5% or more falls back to the even split")
	# looks 4,8,12,16,20: 2^-3 alone is 0.125 -> 1 - 0.05/5 = 0.99 at every
	# look -> n=20: [d_(4), d_(17)] (1 - 2*1351/2^20 = 0.99742)
	looks_copy 4,8,12,16,20
	expect_paired 13 26 "a 99% interval: look 5 of 5"
	kit_untraced jq_near ".cases[] | select(.name == \"paired\") | .configs[0].penalty_ms.coverage" 0.9974232
}

# ---- verdicts ------------------------------------------------------------------------

# ---- scaling and serialisation ------------------------------------------------------------

@test "the guide's order of cases; scaling and serialisation: throughput at T, each verdict, the headline" {
	# (was: "cases come in the guide's order, not the samples files' (classes, dylib, exe, script on disk)")
	analyzed_output scaling
	kit_untraced jq_is '[.cases[].name] | join(",")' "script,exe,dylib,classes"
	# the terminal table and report.md follow run.json
	# (an awk each, no pipe or file: a process is 5-10 ms here)
	assert_equal "$(awk '$1 ~ /^(script|exe|dylib|classes)$/ && !seen[$1]++ { printf "%s,", $1 }' <<<"$output")" "script,exe,dylib,classes,"
	assert_equal "$(awk 'match($0, /^\| (script|exe|dylib|classes) \|/) { c = substr($0, 3, RLENGTH - 4); if (!seen[c]++) s = s (s == "" ? "" : ",") c }
		END { print s }' "$RUN/report.md")" "script,exe,dylib,classes"
	# (was: "scaling and serialisation: throughput at T, each verdict and n/a, the configs' order and headline")
	# scaling and serialisation: throughput at T, serialised, parallel, undetermined, n/a (one thread count, no penalty), configs' order and headline
	# -- scaling is throughput at T over throughput at T=1, per pass
	analyzed scaling
	kit_untraced jq_is "[.cases[] | select(.name == \"exe\").scaling[] | .threads] | join(\",\")" "1,2,4"
	kit_untraced jq_near ".cases[] | select(.name == \"exe\").scaling[1].first" 1.02
	kit_untraced jq_near ".cases[] | select(.name == \"exe\").scaling[1].repeat" 1.6
	kit_untraced jq_near ".cases[] | select(.name == \"exe\").scaling[2].first" 1
	kit_untraced jq_near ".cases[] | select(.name == \"exe\").scaling[2].repeat" 2.4
	# -- serialised: the first pass stays flat while the repeat pass scales
	analyzed_output scaling
	kit_untraced jq_is ".cases[] | select(.name == \"exe\").serialisation" serialised
	kit_untraced jq_is ".cases[] | select(.name == \"exe\").serialisation_reason" "the penalty at T=4 is 207.85 ms, nearer a queue's 199.15 than one check's 50.35: launches queue (first pass x1.00, repeat x2.40)"
	kit_untraced assert_line "exe: slowdown (serialised) — interval [47.50, 52.80] ms above the 1 ms floor"
	# -- parallel: the first pass scales
	analyzed scaling
	kit_untraced jq_is ".cases[] | select(.name == \"script\").serialisation" parallel
	kit_untraced jq_is ".cases[] | select(.name == \"script\").serialisation_reason" "the penalty at T=2 is 50.35 ms, nearer one check's 50.35 than a queue's 98.45, and the first pass scales x2.00 (repeat x2.00)"
	# -- undetermined: neither pass scales
	analyzed scaling
	kit_untraced jq_is ".cases[] | select(.name == \"dylib\").serialisation" undetermined
	# -- n/a: only one thread count in the headline's class
	analyzed scaling
	kit_untraced jq_is ".cases[] | select(.name == \"classes\").serialisation" n/a
	kit_untraced jq_is ".cases[] | select(.name == \"classes\").serialisation_reason" "only one thread count measured"
	# -- n/a: no first-launch penalty to serialise
	analyzed verdicts
	kit_untraced jq_is ".cases[] | select(.name == \"none\").serialisation" n/a
	kit_untraced jq_is ".cases[] | select(.name == \"none\").serialisation_reason" "no first-launch penalty"
	# -- configs sort by class then threads; without all/T=1 the headline is the first class's lowest T
	analyzed scaling
	kit_untraced jq_is "[.cases[] | select(.name == \"classes\").configs[] | \"\(.class)\(.threads)\"] | join(\",\")" "E1,P1,P2"
	kit_untraced jq_is ".cases[] | select(.name == \"classes\").headline | \"\(.class)\(.threads)\"" E1
	kit_untraced jq_is ".cases[] | select(.name == \"exe\").headline | \"\(.class)\(.threads)\"" all1
	kit_untraced jq_is ".cases[] | select(.name == \"classes\").kind" exe
}

# SAMPLES_HEAD_AWK: the awk function the generated runs' samples files
# start with: samples_head(F, CASE, THREADS, FIRST_NS, REPEAT_NS) writes the
# header, the meta lines (an exe case, class all, 20 artifacts, blocks of
# 2) and the first and repeat passes' lines
SAMPLES_HEAD_AWK='function samples_head(f, c, threads, first, repeat) {
	print "execlag-samples", 1 > f
	print "meta", "case", c > f; print "meta", "kind", "exe" > f; print "meta", "threads", threads > f
	print "meta", "class", "all" > f; print "meta", "n", 20 > f; print "meta", "block", 2 > f
	print "pass", "first", first, 20 > f; print "pass", "repeat", repeat, 20 > f
}
'

# rounds_run DIR: a run with a check of 2 ms (T=1: first 3.5, repeat 1.5 ms)
# and three cases at T=2 in blocks of one launch per thread (meta block 2),
# each round's longest first launch minus its longest repeat (ms):
#   queue     4.00 4.02 .. 4.18   (the second launch waited for the first check)
#   parallel  2.00 2.02 .. 2.18
#   late      as parallel, but its first pass at T=2 took 70 ms: x1.00
#   far       1.20 1.22 .. 1.38 (both threads): short of half way, but
#             about 35% off one check
#   noisy     1.90 1.95 2.00 2.05 2.10 3.90 3.95 4.00 4.05 4.10 (the first
#             three count as 2.00: thread 0's launch, one check, is the longest)
# In round 3 of "queue" one launch failed: that round is left out.
# Throughput: T=1 20 launches in 70 ms first, 30 ms repeat; T=2 in 50 and
# 17 ms: x1.40 and x1.76.
rounds_run() {
	local dir=$1
	mkdir -p "$dir/raw"
	printf 'os=Linux\nos_version=fixture\narch=x86_64\nprofile=fixture\n' >"$dir/conditions.txt"
	# (one awk writes every samples file, a case at a time: an awk a file
	# was 14 processes)
	awk -v dir="$dir/raw" "$SAMPLES_HEAD_AWK"'BEGIN {
		OFS = "\t"
		split("1.90 1.95 2.00 2.05 2.10 3.90 3.95 4.00 4.05 4.10", noisy, " ")
		nc = split("queue parallel noisy late far contended veto", cs, " ")
		for (k = 1; k <= nc; k++) {
			c = cs[k]
			f = dir "/" c "-t1-all.samples.tsv"
			samples_head(f, c, 1, 70000000, 30000000)
			for (i = 0; i < 20; i++) print "sample", "first", 0, i, 3500000, 0, 0, 0 > f
			for (i = 0; i < 20; i++) print "sample", "repeat", 0, i, 1500000, 0, 0, 0 > f
			close(f)
			f = dir "/" c "-t2-all.samples.tsv"
			samples_head(f, c, 2, (c == "late" ? 70000000 : 50000000), 17000000)
			if (c == "contended" || c == "veto") {
				# both repeats slowed to 3.5 ms by contention; thread 0 first
				# 3.5, thread 1 later by S: a queue spread them, the excess
				# over the longest repeat is S
				for (b = 0; b < 10; b++) {
					r = c == "contended" ? 2.1 + 0.02 * b : 1.9 + 0.02 * b
					print "sample", "first", 0, 2 * b, 3500000, 0, 0, 0 > f
					print "sample", "first", 1, 2 * b + 1, sprintf("%d", (3.5 + r) * 1e6), 0, 0, 0 > f
				}
				for (i = 0; i < 20; i++) print "sample", "repeat", i % 2, i, 3500000, 0, 0, 0 > f
			} else {
				for (b = 0; b < 10; b++) {
					r = c == "queue" ? 4 + 0.02 * b : (c == "parallel" || c == "late") ? 2 + 0.02 * b : c == "far" ? 1.2 + 0.02 * b : noisy[b + 1]
					# thread 0: one check; thread 1: the round excess (over the 1.5 ms repeat)
					print "sample", "first", 0, 2 * b, (c == "far" ? sprintf("%d", (1.5 + r) * 1e6) : 3500000), 0, 0, 0 > f
					print "sample", "first", 1, 2 * b + 1, sprintf("%d", (1.5 + r) * 1e6), ((c == "queue" && b == 3) ? -1 : 0), ((c == "queue" && b == 3) ? 9 : 0), 0 > f
				}
				for (i = 0; i < 20; i++) print "sample", "repeat", i % 2, i, 1500000, 0, 0, 0 > f
			}
			close(f)
		}
	}'
}

@test "serialisation from rounds: a queue as T x L, parallel as L; one check long, contended: undetermined" {
	# (was: "serialisation from rounds: T launches started together show a queue as T x L, parallel checks as L")
	RUN="$BATS_TEST_TMPDIR/rounds"
	JSON="$RUN/run.json"
	rounds_run "$RUN"
	run_sep -0 "$BIN/analyze" --run "$RUN" --quiet
	# queue: round 3 had a failed launch; the other nine give a median of
	# 4.10 and, for nine, [x(2), x(8)] = [4.02, 4.16]
	kit_untraced jq_is ".cases[] | select(.name == \"queue\").configs[1].rounds.count" 9
	kit_untraced jq_is ".cases[] | select(.name == \"queue\").serialisation" serialised
	kit_untraced jq_is ".cases[] | select(.name == \"queue\").serialisation_reason" "a round of T=2 launches took 4.10 ms [4.02, 4.16] longer first, nearer a queue's 4.00 than one check's 2.00: launches queue (first pass x1.40, repeat x1.76)"
	kit_untraced jq_is ".cases[] | select(.name == \"parallel\").configs[1].rounds.count" 10
	kit_untraced jq_is ".cases[] | select(.name == \"parallel\").serialisation" parallel
	kit_untraced jq_is ".cases[] | select(.name == \"parallel\").serialisation_reason" "a round of T=2 launches took 2.09 ms [2.02, 2.16] longer first, nearer one check's 2.00 than a queue's 4.00: checks run in parallel (first pass x1.40, repeat x1.76)"
	# near one check, but a first pass that did not scale: a late thread can
	# hide a queue, so no answer
	kit_untraced jq_is ".cases[] | select(.name == \"late\").serialisation" undetermined
	kit_untraced jq_is ".cases[] | select(.name == \"late\").serialisation_reason" "a round of T=2 launches took 2.09 ms [2.02, 2.16] longer first, near one check's 2.00, but the first pass did not scale (x1.00): a thread that starts its round late hides a queue"
	# rounds far from one check's cost: the T=1 check and the rounds disagree
	kit_untraced jq_is ".cases[] | select(.name == \"far\").serialisation" undetermined
	kit_untraced jq_is ".cases[] | select(.name == \"far\").serialisation_reason | test(\"^a round of T=2 launches took 1.29 ms \\\\[1.22, 1.36\\\\] longer first, short of a queue's 4.00 but 3[56]% off one check's 2.00: too noisy to tell$\")" true
	# a median half way but an interval down to one check's cost: no answer
	kit_untraced jq_is ".cases[] | select(.name == \"noisy\").serialisation" undetermined
	kit_untraced jq_is ".cases[] | select(.name == \"noisy\").serialisation_reason" "a round of T=2 launches took 3.00 ms [2.00, 4.05] longer first, too close to one check's 2.00 and a queue's 4.00 to tell at this noise (first pass x1.40)"
	# the first launches' spread beyond the repeats: a queue's (T-1) x L, 0 for parallel
	kit_untraced jq_is ".cases[] | select(.name == \"queue\").configs[1].rounds.spread_ms.median" 2.1
	kit_untraced jq_is ".cases[] | select(.name == \"parallel\").configs[1].rounds.spread_ms.ci_high < 1" true
	# contention in the repeat pass pulls the excess down to about one
	# check: a spread of a queue's and an excess above one check say queue;
	# an excess short of one check with that spread says nothing
	kit_untraced jq_is ".cases[] | select(.name == \"contended\").serialisation" serialised
	kit_untraced jq_is ".cases[] | select(.name == \"contended\").serialisation_reason" "the first launches of a round of T=2 were spread 2.19 ms [2.12, 2.26] beyond the repeats, as a queue's 2.00, and the rounds took 2.19 ms [2.12, 2.26] longer first, above one check's 2.00: launches queue"
	kit_untraced jq_is ".cases[] | select(.name == \"veto\").serialisation" undetermined
	kit_untraced jq_is ".cases[] | select(.name == \"veto\").serialisation_reason" "rounds 1.99 ms [1.92, 2.06] longer first, as if parallel, but first launches spread 1.99 ms [1.92, 2.06] beyond the repeats (queue 2.00, parallel 0): too noisy to tell"
	# the T=1 configs have no rounds
	kit_untraced jq_is ".cases[] | select(.name == \"queue\").configs[0].rounds" null
	# a check measured at T=1 as 2 ms [1.4, 2.6]: the rounds' 2.09 [2.02,
	# 2.16] reach the half-way mark of a 1.4 ms check's queue (2.1), so
	# not parallel
	kit_untraced jq_flush # (the assertions above are of the run as it was)
	f="$RUN/raw/parallel-t1-all.samples.tsv"
	awk -F '\t' -v OFS='\t' '$1 == "sample" && $2 == "first" { $5 = sprintf("%d", (3.5 + ($4 % 5 - 2) * 0.6) * 1e6) } { print }' \
		"$f" >"$f.new" && mv "$f.new" "$f"
	run_sep -0 "$BIN/analyze" --run "$RUN" --quiet
	kit_untraced jq_is ".cases[] | select(.name == \"parallel\").serialisation" undetermined
	kit_untraced jq_is ".cases[] | select(.name == \"parallel\").serialisation_reason" "a round of T=2 launches took 2.09 ms [2.02, 2.16] longer first, near one check's 2.00, but one check may cost as little as 1.40, whose queue the rounds reach: too noisy to tell"
	# launch's start times (9th field): rounds 0-4 of the queue had their
	# threads start 5 ms apart (beyond a quarter of the penalty): left out
	# (round 3, with a failed launch, was out already); 0.5 ms apart is a round
	kit_untraced jq_flush # (the assertions above are of the run as it was)
	f="$RUN/raw/queue-t2-all.samples.tsv"
	awk -F '\t' -v OFS='\t' '$1 == "sample" { b = int($4 / 2); $9 = b * 20000000 + ($3 == 1 ? (b < 5 ? 5000000 : 500000) : 0) } { print }' \
		"$f" >"$f.new" && mv "$f.new" "$f"
	run_sep -0 "$BIN/analyze" --run "$RUN" --quiet
	kit_untraced jq_is ".cases[] | select(.name == \"queue\").configs[1].rounds.skewed" 4
	kit_untraced jq_is ".cases[] | select(.name == \"queue\").configs[1].rounds.count" 5
	# without meta block (older samples) the penalty at T decides, as in the scaling fixture
	kit_untraced jq_flush # (the assertions above are of the run as it was)
	sed -i.bak '/^meta\tblock\t/d' "$RUN/raw/parallel-t2-all.samples.tsv"
	rm -f "$RUN/raw/parallel-t2-all.samples.tsv.bak"
	run_sep -0 "$BIN/analyze" --run "$RUN" --quiet
	kit_untraced jq_is ".cases[] | select(.name == \"parallel\").configs[1].rounds" null
	kit_untraced jq_is ".cases[] | select(.name == \"parallel\").serialisation_reason" "a check of 2.00 ms beside 1.50 ms for the rest of a launch forms too short a queue at T=2 to tell queued from parallel checks"
	# (was: "rounds one check long where launches contend: undetermined, not parallel (gate, 1 worker, 2 ms)")
	# a real run (fixtures/analyze/README.md): the gate's log shows the
	# second check of every round waiting 2.1 ms for the first, yet the
	# rounds took one check longer, since the repeats at T=2 ran 2.36 ms
	# slower than at T=1 and the queued launch escaped that
	analyze_ok contended
	kit_untraced jq_is ".cases[] | select(.name == \"script\").verdict" slowdown
	kit_untraced jq_near ".cases[] | select(.name == \"script\").configs[1].rounds.excess_ms.median" 2.73946
	kit_untraced jq_is ".cases[] | select(.name == \"script\").serialisation" undetermined
	kit_untraced jq_is ".cases[] | select(.name == \"script\").serialisation_reason" "rounds 2.74 ms [1.78, 3.14] longer first, near one check's 2.72, but launches at T=2 were 2.36 ms slower than alone, which a queue's staggered first launches escape (its rounds: 3.08): too close to tell"
	# the same rounds with T=1's launches as slow as T=2's (both passes
	# 2.36 ms longer: one check's cost unchanged) leave nothing to escape:
	# the answer is the rounds', parallel (the rule before the contention
	# was asked, which called this run parallel)
	kit_untraced jq_flush # (the assertions above are of the run as it was)
	f="$RUN/raw/script-t1-all.samples.tsv"
	awk -F '\t' -v OFS='\t' '$1 == "sample" && ($2 == "first" || $2 == "repeat") { $5 = $5 + 2357600 } { print }' \
		"$f" >"$f.new" && mv "$f.new" "$f"
	run_sep -0 "$BIN/analyze" --run "$RUN" --quiet
	kit_untraced jq_near ".cases[] | select(.name == \"script\").penalty_ms.median" 2.7201
	kit_untraced jq_is ".cases[] | select(.name == \"script\").serialisation" parallel
}

# reference_run DIR: three cases at T=1, 20 artifacts, first 25 ms:
#   watched  repeat 5.00, 5.02 .. 5.38 ms; reference 1.00 ms: repeat - reference
#            4.00 .. 4.38, median 4.19, [x(6), x(15)] = [4.10, 4.28]; ratio 5.19
#   plain    repeat as watched, reference 0.01 ms shorter than each repeat
#   old      no reference samples (launch without --reference)
reference_run() {
	local dir=$1
	mkdir -p "$dir/raw"
	printf 'os=Linux\nos_version=fixture\narch=x86_64\nprofile=fixture\n' >"$dir/conditions.txt"
	# (one awk writes the three samples files)
	awk -v dir="$dir/raw" "$SAMPLES_HEAD_AWK"'BEGIN {
		OFS = "\t"
		nc = split("watched plain old", cs, " ")
		for (k = 1; k <= nc; k++) {
			c = cs[k]
			f = dir "/" c "-t1-all.samples.tsv"
			samples_head(f, c, 1, 500000000, 104000000)
			for (i = 0; i < 20; i++) print "sample", "first", 0, i, 25000000, 0, 0, 0 > f
			for (i = 0; i < 20; i++) print "sample", "repeat", 0, i, 5000000 + 20000 * i, 0, 0, 0 > f
			if (c != "old") {
				print "pass", "reference", 20000000, 20 > f
				for (i = 0; i < 20; i++)
					print "sample", "reference", 0, i, (c == "watched" ? 1000000 : 4990000 + 20000 * i), 0, 0, 0 > f
			}
			close(f)
		}
	}'
}

@test "generated runs: every launch against a reference; a saturated CPU undetermined; penalty by size" {
	# (was: "every launch: repeats against the reference outside the work folder, with an interval and a verdict")
	RUN="$BATS_TEST_TMPDIR/reference"
	JSON="$RUN/run.json"
	reference_run "$RUN"
	run_sep -0 "$BIN/analyze" --run "$RUN"
	kit_untraced jq_is ".cases[] | select(.name == \"watched\").every_launch.verdict" slowdown
	kit_untraced jq_is ".cases[] | select(.name == \"watched\").every_launch.pairs" 20
	kit_untraced jq_near ".cases[] | select(.name == \"watched\").every_launch.cost_ms.median" 4.19
	kit_untraced jq_near ".cases[] | select(.name == \"watched\").every_launch.cost_ms.ci_low" 4.10
	kit_untraced jq_near ".cases[] | select(.name == \"watched\").every_launch.cost_ms.ci_high" 4.28
	kit_untraced jq_near ".cases[] | select(.name == \"watched\").every_launch.reference_median_ms" 1
	kit_untraced jq_near ".cases[] | select(.name == \"watched\").every_launch.ratio" 5.19
	kit_untraced jq_is ".cases[] | select(.name == \"watched\").every_launch.reason" "interval [4.10, 4.28] ms above the 1 ms floor"
	kit_untraced jq_is ".cases[] | select(.name == \"plain\").every_launch.verdict" none
	kit_untraced jq_is ".cases[] | select(.name == \"old\").every_launch" null
	# the first-launch penalty is untouched by the reference pass
	kit_untraced jq_near ".cases[] | select(.name == \"watched\").penalty_ms.median" 19.81
	grep -qF "  Every launch: slowdown — a launch in the work folder costs 4.19 [4.10, 4.28] ms more than the same kind of program outside it, first or repeat (repeat median 5.19 ms, outside 1.00 ms): interval [4.10, 4.28] ms above the 1 ms floor." "$RUN/report.md"
	[ "$(grep -c "Every launch:" "$RUN/report.md")" = 2 ]
	# the terminal names it only where it is a cost
	kit_untraced assert_line "watched: every launch in the work folder costs 4.19 ms more than outside, first or repeat — interval [4.10, 4.28] ms above the 1 ms floor"
	kit_untraced refute_output --partial "plain: every launch"
	# (was: "undetermined when the CPU was saturated: no idle core during the first pass decides nothing")
	cp -R "$FIXTURES/analyze/scaling" "$BATS_TEST_TMPDIR/sat"
	f="$BATS_TEST_TMPDIR/sat/raw/exe-t4-all.samples.tsv"
	# launch records the CPUs and the idle share of all CPU time per pass
	awk '{ print } /^meta\tn\t/ { print "meta\tcpus\t4"; print "meta\tidle_first\t0.0500"; print "meta\tidle_repeat\t0.0400" }' \
		"$f" >"$f.new" && mv "$f.new" "$f"
	set_idle() {
		awk -F '\t' -v OFS='\t' -v v="$1" '$1 == "meta" && $2 == "idle_first" { $3 = v } { print }' "$f" >"$f.new" &&
			mv "$f.new" "$f"
	}
	run_both -0 "$BIN/analyze" --run "$BATS_TEST_TMPDIR/sat" --quiet
	JSON="$BATS_TEST_TMPDIR/sat/run.json"
	kit_untraced jq_is '.cases[] | select(.name == "exe") | .serialisation' undetermined
	kit_untraced jq_is '.cases[] | select(.name == "exe") | .serialisation_reason' \
		"the CPU was saturated: 0.20 cores idle during the first pass at T=4 (first pass x1.00, penalty grew x4.13)"
	kit_untraced jq_flush # (the assertions above are of the run as it was)
	# with two of four cores idle the queue is told as before
	set_idle 0.5000
	run_both -0 "$BIN/analyze" --run "$BATS_TEST_TMPDIR/sat" --quiet
	kit_untraced jq_is '.cases[] | select(.name == "exe") | .serialisation' serialised
	kit_untraced jq_flush # (the assertion above is of the run as it was)
	# a value that is no fraction is refused with one line
	set_idle 1.5
	run_sep -2 "$BIN/analyze" --run "$BATS_TEST_TMPDIR/sat" --quiet
	[[ "$stderr" == *"bad idle_first '1.5'"* ]] || fail "stderr: $stderr"
	# (was: "penalty against size: the slope over the paddings, its interval, and a verdict on growth")
	RUN="$BATS_TEST_TMPDIR/sized"
	JSON="$RUN/run.json"
	sized_run "$RUN"
	run_sep -0 "$BIN/analyze" --run "$RUN" --quiet
	validate_run_json "$JSON"
	# the headline is the smallest size; every size is a config of its own
	kit_untraced jq_is ".cases[] | select(.name == \"grow\").headline.pad_bytes" 16384
	kit_untraced jq_is ".cases[] | select(.name == \"grow\").penalty_ms.median" 2.03125
	kit_untraced jq_is "[.cases[] | select(.name == \"grow\").configs[].pad_bytes] | join(\",\")" 16384,1048576,8388608
	kit_untraced jq_is ".cases[] | select(.name == \"grow\").size_slopes | length" 1
	kit_untraced jq_near ".cases[] | select(.name == \"grow\").size_slopes[0].ms_per_mib" 2
	kit_untraced jq_is ".cases[] | select(.name == \"grow\").size_slopes[0].sizes" 3
	kit_untraced jq_is ".cases[] | select(.name == \"grow\").size_slopes[0].verdict" slowdown
	kit_untraced jq_is ".cases[] | select(.name == \"grow\").size_slopes[0] | .low < 2 and .high > 2 and .high - .low < 0.1" true
	kit_untraced jq_near ".cases[] | select(.name == \"flat\").size_slopes[0].ms_per_mib" 0
	kit_untraced jq_is ".cases[] | select(.name == \"flat\").size_slopes[0].verdict" none
	# a spread as large as the growth: the slope is still 2, but not told
	kit_untraced jq_near ".cases[] | select(.name == \"wide\").size_slopes[0].ms_per_mib" 2
	kit_untraced jq_is ".cases[] | select(.name == \"wide\").size_slopes[0].verdict" inconclusive
	# scaling rows come from one size only
	kit_untraced jq_is ".cases[] | select(.name == \"grow\").scaling | length" 1
	# the report: each size in the table, the slope under the verdict, and the plot's bands
	grep -q '^| grow | 1 | all 1 MiB | ' "$RUN/report.md"
	grep -q '^  Size (T=1, class all): slowdown — the penalty grows 2 ms per MiB \[' "$RUN/report.md"
	grep -q 'ms at 16 KiB, .* ms at 1 MiB, .* ms at 8 MiB\.$' "$RUN/report.md"
	grep -q '>grow, 8 MiB<' "$RUN/plot-launch.svg"
	grep -q 'per MiB \[' "$RUN/plot-launch.svg"
	# the same case, thread count, class and size twice is refused
	kit_untraced jq_flush # (the assertions above are of the run as it was)
	cp "$RUN/raw/grow-t1-all-s16384.samples.tsv" "$RUN/raw/grow-again.samples.tsv"
	run_sep -2 "$BIN/analyze" --run "$RUN" --quiet
	[[ "$stderr" == *"case grow at T=1 class all (padding 16384 bytes) is also in"* ]] || fail "stderr: $stderr"
}

# ---- cache key inference ---------------------------------------------------------------------

@test "cache key inferred or undetermined; the gate block, listeners, emulation; report.md's sections" {
	# (was: "cache key: inode, path, content; undetermined where no key explains or the cases are missing")
	# cache key: inode, path and content; undetermined where no key explains, a rewrite is inconclusive, exe has no penalty, cases are missing
	# -- cache key inode: hardlink none, copy and rewrite slowdown
	analyzed key-inode
	kit_untraced jq_is .inferred.cache_key inode
	grep -q '^\*\*inode\*\*' "$RUN/report.md"
	# -- cache key path: rewrite none, hardlink and copy slowdown
	analyze_ok key-path
	kit_untraced jq_is .inferred.cache_key path
	# -- cache key content: hardlink, copy and rewrite all none
	analyze_ok key-content
	kit_untraced jq_is .inferred.cache_key content
	# -- cache key undetermined: a pattern no key explains, with the triple
	analyze_ok key-undetermined
	kit_untraced jq_is .inferred.cache_key undetermined
	kit_untraced jq_is .inferred.reason "hardlink slowdown, copy slowdown, rewrite slowdown: matches no single key"
	# -- cache key undetermined: an inconclusive rewrite keys nothing
	analyze_ok key-inconclusive
	kit_untraced jq_is ".cases[] | select(.name == \"exe-rewrite\").verdict" inconclusive
	kit_untraced jq_is .inferred.cache_key undetermined
	kit_untraced jq_is .inferred.reason "hardlink none, copy slowdown, rewrite inconclusive: matches no single key"
	# -- cache key undetermined: exe has no penalty
	analyze_ok key-nopenalty
	kit_untraced jq_is .inferred.cache_key undetermined
	kit_untraced jq_is .inferred.reason "no first-launch penalty to key"
	# -- cache key undetermined: cases missing
	analyzed verdicts
	kit_untraced jq_is .inferred.cache_key undetermined
	kit_untraced jq_is .inferred.reason "needs exe, exe-hardlink, exe-copy and exe-rewrite"
	# (was: "the gate block; fanotify listeners and emulation said; report.md's title, results and sections")
	# (was: "the gate block: numbers with gate.active=1, said in the report; null without, and not mentioned")
	# -- gate.active=1 gives a gate block with numbers, and the report says so
	analyzed scaling
	kit_untraced jq_is '.gate | [.latency_ms, .workers, .key, .exempt] | @tsv' "$(printf '50\t1\tinode\t0')"
	kit_untraced jq_is '.gate.latency_ms | type' number
	kit_untraced jq_is '.gate.workers | type' number
	md_has "$RUN/report.md" = 'Calibration gate active: latency 50 ms, workers 1, key inode, on exec, exempt 0'
	md_has "$RUN/report.md" '~' 'A calibration gate (Linux fanotify) held launches: these numbers are a test of the kit, not of an OS.'
	# -- without gate.active=1 the gate is null and the report does not mention it
	analyzed verdicts
	kit_untraced jq_is .gate null
	! grep -q 'Calibration gate' "$RUN/report.md" || fail "the report mentions a gate without one"
	# (was: "fanotify listeners and an emulated kit are said at the top of the report and in the table's notes")
	analyze_ok verdicts
	! grep -q 'fanotify listeners\|Emulated' "$RUN/report.md" "$RUN/run.json" || fail "said without the conditions"
	printf '%s\n' 'fanotify_listeners=clamonacc (1)' \
		'agents=ClamAV daemon (clamd); ClamAV on-access scanning (clamonacc)' \
		'kit_arch=aarch64' 'emulation=qemu-user (binfmt_misc qemu-aarch64)' >>"$RUN/conditions.txt"
	run_both -0 "$BIN/analyze" --run "$RUN"
	kit_untraced assert_line 'fanotify listeners: clamonacc (1)'
	kit_untraced assert_line "(emulated: qemu-user (binfmt_misc qemu-aarch64); the timings are the emulator's, not evidence of the OS)"
	md_has "$RUN/report.md" ^ '**Watching exec and open (fanotify listeners):** clamonacc (1) — known: ClamAV daemon (clamd); ClamAV on-access scanning (clamonacc).'
	md_has "$RUN/report.md" ^ '**Emulated:** the kit was built for aarch64 and ran under emulation (qemu-user (binfmt_misc qemu-aarch64))'
	# none, n/a and "not read" are no listeners
	for v in none n/a 'not read (needs root)'; do
		sed -i.bak '/^fanotify_listeners=/d' "$RUN/conditions.txt"
		echo "fanotify_listeners=$v" >>"$RUN/conditions.txt"
		run_both -0 "$BIN/analyze" --run "$RUN" --quiet
		! grep -q 'Watching exec and open' "$RUN/report.md" || fail "listeners said for '$v'"
	done
	# (was: "report.md has the title, results, verdicts, scaling, failures and how to read it")
	analyzed verdicts
	local md="$RUN/report.md"
	md_has "$md" = '# execlag report — verdicts'
	md_has "$md" ^ '## Conditions'
	md_has "$md" = '| note | a=b \| c |'
	md_has "$md" = '| case | T | class | first median ms | repeat median ms | penalty ms [95% CI] | x unloaded | verdict |'
	md_has "$md" = '| paired | 1 | all | 24.00 | 3.50 | 19.50 [15.00, 24.00] | 8.09 | slowdown |'
	md_has "$md" '~' '**ratio** (exe, T=1, class all): inconclusive — interval [5.00, 10.00] ms includes the 5.31 ms floor (0.25 x an unloaded launch of 21.25 ms)'
	md_has "$md" '~' '**scanner** (exe, T=1, class all): slowdown — interval [40.00, 45.00] ms above the 22.81 ms floor (0.25 x an unloaded launch of 91.25 ms)'
	md_has "$md" ^ '  Serialisation: n/a — no first-launch penalty'
	md_has "$md" ^ '## Scaling'
	md_has "$md" ^ '## Failures'
	md_has "$md" ^ '## Inferred cache key'
	md_has "$md" ^ '## How to read this'
	md_has "$md" '~' 'median of the paired differences'
	! grep -qi 'macos' "$md" || fail "the report of a Linux run mentions macOS"
}
# ---- the calibration gate ------------------------------------------------------------------------


# ---- report.md ---------------------------------------------------------------------------------------


# ---- refusals: bad input writes nothing --------------------------------------------------------------

# A scratch copy of a good fixture for a test to break.
broken_copy() {
	BROKEN_N=$((${BROKEN_N:-0} + 1)) # a folder each (the refusals are one test)
	RUN="$BATS_TEST_TMPDIR/broken$BROKEN_N"
	cp -R "$FIXTURES/analyze/key-inode" "$RUN"
	SAMPLES="$RUN/raw/exe-copy-t1-all.samples.tsv"
}

# replace_line FILE N TEXT: portable in-place edit (no sed -i).
replace_line() {
	awk -v n="$2" -v text="$3" 'NR == n { print text; next } { print }' "$1" >"$1.new"
	mv "$1.new" "$1"
}

# assert_refused GLOB: exit 2, exactly one stderr line matching
# "analyze: GLOB", nothing on stdout, no run.json, report.md or temporary.
assert_refused() {
	run_sep "$BIN/analyze" --run "$RUN"
	assert_failure 2
	[ "${#stderr_lines[@]}" -eq 1 ] || fail "want one stderr line, got: $stderr"
	# shellcheck disable=SC2053
	[[ "$stderr" == "analyze: "$1 ]] || fail "stderr: $stderr"
	kit_untraced assert_output ""
	[ ! -e "$RUN/run.json" ] || fail "run.json was written"
	[ ! -e "$RUN/report.md" ] || fail "report.md was written"
	assert_no_temporaries
}

@test "refused, one line and nothing written, fifteen ways; the previous files untouched; a rerun replaces" {
	# (was: "refused, one line and nothing written: each of fifteen ways samples or a run folder can be bad")
	# refused, one line and nothing written: bad magic, a non-numeric field, a field missing, an unknown pass, a duplicate, an index beyond n, an unknown record, no meta n, a case twice, an empty file, no run folder, no samples, no raw/, no conditions.txt, a bad conditions line
	# -- refused: a samples file with a bad magic line
	broken_copy
	replace_line "$SAMPLES" 1 "$(printf 'execlag-samples\t2')"
	assert_refused "*/raw/exe-copy-t1-all.samples.tsv:1: not a samples file*"
	# -- refused: a non-numeric field
	broken_copy
	replace_line "$SAMPLES" 10 "$(printf 'sample\tfirst\t0\t1\t51O00000\t0\t0\t0')"
	assert_refused "*/raw/exe-copy-t1-all.samples.tsv:10: bad DUR_NS '51O00000'*"
	# -- refused: a sample line with a field missing
	broken_copy
	replace_line "$SAMPLES" 11 "$(printf 'sample\tfirst\t0\t2\t55000000\t0\t0')"
	assert_refused "*/raw/exe-copy-t1-all.samples.tsv:11: sample line has 7 fields, want 8"
	# -- refused: an unknown pass
	broken_copy
	replace_line "$SAMPLES" 7 "$(printf 'pass\tthird\t312000000\t6')"
	assert_refused "*/raw/exe-copy-t1-all.samples.tsv:7: unknown pass 'third'*"
	# -- refused: two samples for the same pass and index
	broken_copy
	replace_line "$SAMPLES" 12 "$(printf 'sample\tfirst\t0\t1\t53000000\t0\t0\t0')"
	assert_refused "*/raw/exe-copy-t1-all.samples.tsv:12: duplicate first sample for index 1*"
	# -- refused: an index beyond meta n
	broken_copy
	replace_line "$SAMPLES" 12 "$(printf 'sample\tfirst\t0\t6\t53000000\t0\t0\t0')"
	assert_refused "*/raw/exe-copy-t1-all.samples.tsv:12: index 6 out of range*"
	# -- refused: an unknown record type
	broken_copy
	printf 'bogus\t1\n' >>"$SAMPLES"
	assert_refused "*/raw/exe-copy-t1-all.samples.tsv:21: unknown record 'bogus'"
	# -- refused: a samples file without meta n
	broken_copy
	awk '!/^meta\tn\t/' "$SAMPLES" >"$SAMPLES.new" && mv "$SAMPLES.new" "$SAMPLES"
	assert_refused "*/raw/exe-copy-t1-all.samples.tsv:*: no 'meta n' line"
	# -- refused: the same case, T and class in two files
	broken_copy
	cp "$SAMPLES" "$RUN/raw/exe-copy-t1-all-again.samples.tsv"
	assert_refused "*: case exe-copy at T=1 class all is also in *"
	# -- refused: an empty samples file
	broken_copy
	: >"$SAMPLES"
	assert_refused "*/raw/exe-copy-t1-all.samples.tsv:1: not a samples file*"
	# -- refused: no such run folder
	RUN="$BATS_TEST_TMPDIR/does-not-exist"
	run_sep "$BIN/analyze" --run "$RUN"
	assert_failure 2
	[ "${#stderr_lines[@]}" -eq 1 ]
	[[ "$stderr" == "analyze: $RUN: no such run folder"* ]] || fail "stderr: $stderr"
	[ ! -e "$RUN" ]
	# -- refused: a run folder without samples files
	broken_copy
	rm "$RUN"/raw/*.samples.tsv
	touch "$RUN/raw/exe-t1-all.manifest" "$RUN/raw/exe-t1-all.samples.tsv.old"
	assert_refused "$RUN/raw: no *.samples.tsv files"
	# -- refused: a run folder without raw/
	broken_copy
	rm -r "$RUN/raw"
	assert_refused "$RUN/raw: no samples files*"
	# -- refused: a missing conditions.txt
	broken_copy
	rm "$RUN/conditions.txt"
	assert_refused "$RUN/conditions.txt: cannot open*"
	# -- refused: a conditions line that is not key=value
	broken_copy
	printf 'Not A Key\n' >>"$RUN/conditions.txt"
	assert_refused "$RUN/conditions.txt:*: not a key=value line"
	# (was: "a refused run leaves the previous run.json and report.md untouched; a second run replaces both")
	# (was: "a refused run leaves the previous run.json and report.md untouched")
	analyze_ok key-inode --quiet
	cp "$RUN/run.json" "$BATS_TEST_TMPDIR/run.json.before"
	cp "$RUN/report.md" "$BATS_TEST_TMPDIR/report.md.before"
	replace_line "$RUN/raw/exe-t1-all.samples.tsv" 9 "$(printf 'sample\tfirst\t0\t0\tx\t0\t0\t0')"
	run_sep "$BIN/analyze" --run "$RUN"
	assert_failure 2
	cmp "$RUN/run.json" "$BATS_TEST_TMPDIR/run.json.before"
	cmp "$RUN/report.md" "$BATS_TEST_TMPDIR/report.md.before"
	assert_no_temporaries
	# (was: "a second run replaces both files whole")
	analyze_ok key-inode --quiet
	printf 'extra=1\n' >>"$RUN/conditions.txt"
	run_both "$BIN/analyze" --run "$RUN" --quiet
	assert_success
	kit_untraced jq_is .conditions.extra 1
	grep -q '^| extra | 1 |$' "$RUN/report.md"
	assert_no_temporaries
}


# sized_run DIR: cases at three paddings (16 KiB, 1 MiB, 8 MiB), T=1, 20
# artifacts; each difference is the penalty plus (i % 5 - 2) x SPREAD ms, so
# the medians are exact: grow 2 + 2 ms per MiB, flat 3 ms, wide 2 + 2 ms
# per MiB with a spread of 15 ms (repeats of 40 ms)
sized_run() {
	local dir=$1
	mkdir -p "$dir/raw"
	printf 'os=Linux\nos_version=fixture\narch=x86_64\nprofile=fixture\n' >"$dir/conditions.txt"
	# (one awk writes the nine samples files)
	awk -v dir="$dir/raw" 'BEGIN {
		OFS = "\t"
		nc = split("grow flat wide", cs, " ")
		np = split("16384 1048576 8388608", pads, " ")
		for (k = 1; k <= nc; k++) for (q = 1; q <= np; q++) {
			c = cs[k]; pad = pads[q]
			f = dir "/" c "-t1-all-s" pad ".samples.tsv"
				mib = pad / 1048576
				pen = c == "flat" ? 3 : 2 + 2 * mib
				spread = c == "wide" ? 15 : 0.05
				rep = c == "wide" ? 40 : 2
				print "execlag-samples", 1 > f
				print "meta", "case", c > f; print "meta", "kind", "exe" > f; print "meta", "threads", 1 > f
				print "meta", "class", "all" > f; print "meta", "n", 20 > f; print "meta", "block", 2 > f
				print "meta", "pad", pad > f
				print "pass", "first", 90000000, 20 > f; print "pass", "repeat", 30000000, 20 > f
				for (i = 0; i < 20; i++) print "sample", "first", 0, i, sprintf("%d", (rep + pen + (i % 5 - 2) * spread) * 1e6), 0, 0, 0 > f
				for (i = 0; i < 20; i++) print "sample", "repeat", 0, i, sprintf("%d", rep * 1e6), 0, 0, 0 > f
			close(f)
		}
	}'
}

