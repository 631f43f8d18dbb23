#!/usr/bin/env bats
# The files a measure reads back, each through its one reader, and every
# consumer failing through it when the file's layout changes (issue 41: one
# reader a file, found by behaviour, not by reading the source):
#   the gate's log (micro/fmt/gatelog.c): micro/bin/measure's gate block and
#     line, and measure --gate-log (scripts/tool/bench-measure's);
#   measure.json (micro/fmt/measurejson.c): mcompare (make compare of two
#     measures) and measure --figures (bench-measure's).
# Fast: micro/bin/measure alone, on fixed files (tests/fixtures/gatelog, the
# brief fixture mac-penalty as the probe through tests/test_helper/mac-measure).

load test_helper/common-setup
load test_helper/mac-measure
load test_helper/quickrun

setup() {
	_common_setup
	LOG="$FIXTURES/gatelog/gate.log"
	_run_folders_setup
	for p in measure mcompare analyze; do
		[ -x "$BIN/$p" ] || fail "$BIN/$p is missing: run 'make build'"
	done
}

# gated_measure LOG [OUT]: micro/measure of a command run under the gate
# (Linux, 20 ms, one worker, key inode) whose log is LOG, into OUT (default
# $D/g, a folder of its own); no probe
gated_measure() {
	local out=${2:-$D/g}
	if [ ! -f "$D/exec.tsv" ]; then
		printf 'execlag-execwatch\t1\nwall_ns\t1500000000\nstatus\texit\t0\nuser_us\t1\nsys_us\t1\nwatch\ton\nfresh_launches\t2\nfresh_execs\t2\nold_execs\t9\noutside\t0\nunplaced\t0\noverflow\t0\n' \
			>"$D/exec.tsv"
		printf '%s\n' os=Linux fanotify_listeners=none agents=none gate.active=1 gate.latency_ms=20 \
			gate.workers=1 gate.key=inode >"$D/conditions.txt"
	fi
	[ -d "$out" ] || mkdir "$out"
	run_sep "$BIN/measure" --out "$out" --watch "$D/exec.tsv" \
		--conditions "$D/conditions.txt" --gate-log "$1" --probe-how none --probe-note "no probe here" -- true
}

@test "the gate's log through its one reader: what it held; a changed layout fails every consumer, named" {
	# the gate's log: what it held, as the measure says it and --gate-log gives it; its layout changed, every consumer fails through its one reader, naming the line
	# (one test for the log as written and changed: a bats test costs some
	# 0.2 s of CPU here before it does anything)
	gated_measure "$LOG"
	assert_success
	assert_line "  Calibration gate (20 ms, 1 worker, key inode): it held 2 new launches, 0.06 s in all (its log)"
	assert_line "  1 new launches passed the gate unheld: their folders were made and run before it had marked them (its log)"
	# (the texts wanted as $'...': a printf in a $( ) is a fork)
	run_both -0 jq -c '.gate | [.decisions, .held_launches, .unheld_launches], [.held_launches_s, .held_s]' "$D/g/measure.json"
	assert_output $'[5,2,1]\n[0.0415745,0.0618876]'
	run_both -0 "$BIN/measure" --gate-log "$LOG"
	assert_output $'decisions\t5\nheld_launches\t2\nheld_launches_s\t0.0415745\nunheld_launches\t1\nheld_s\t0.0618876'
	local filter at why c n=0 outs=() want=""
	# each row: its changed log, as measure --gate-log and the measure read
	# it (run by kit_untraced: without bats' trace of each command, some
	# 0.3 ms each; a failure is reported at its call below)
	changed_logs() {
		# sed filter # the line at fault # what the reader says of it
		while IFS='#' read -r filter at why; do
			n=$((n + 1))
			c="$BATS_TEST_TMPDIR/changed.$n"
			sed "$filter" "$LOG" >"$c"
			run_both -2 "$BIN/measure" --gate-log "$c"
			assert_output "measure: $c: not the calibration gate's log: ${at:+line $at: }$why"
			gated_measure "$c" "$D/g$n"
			assert_success
			assert_line "  Calibration gate (20 ms, 1 worker, key inode): its log is not the gate's: ${at:+line $at: }$why"
			outs+=("$D/g$n/measure.json")
			want="$want$n [null,null,false]"$'\n'
		done <<'ROWS'
s/"result"/"outcome"/#1#no result of miss, hit, exempt, unheld, wedged or refused
s/"result":"miss"/"result":"held"/#3#no result of miss, hit, exempt, unheld, wedged or refused
s/"event":"library"/"event":"lib"/#5#no event of exec, library or open
s/"held_ms":20.301/"held_ms":"20.301"/#5#no held_ms
s/"gate":"start"/"gate":"begin"/#2#a gate line neither start nor stop
/"gate":"start"/d##no start line (the gate writes one as it starts)
4s/^{/[/#4#not a JSON object
ROWS
	}
	kit_untraced changed_logs
	# none of those measures counted a log that is not the gate's (one jq
	# for them all: row N's measure is line N)
	run_both -0 jq -r '"\(input_filename | sub(".*/g"; "") | sub("/.*"; "")) \(.gate | [.held_launches, .held_s, has("decisions")] | tojson)"' "${outs[@]}"
	assert_equal "$output"$'\n' "$want"
	# the line numbers above are the fixture's: it is what the rows change
	# (one line starts the gate, the second)
	local l starts=0 second=""
	n=0
	while IFS= read -r l; do
		n=$((n + 1))
		[ "$n" != 2 ] || second=$l
		case $l in *'"gate":"start"'*) starts=$((starts + 1)) ;; esac
	done <"$LOG"
	[ "$starts" = 1 ] && [ "${second:0:16}" = '{"gate":"start",' ] || fail "the fixture's start line moved: $starts, line 2 $second"
	# a log that is not there: the measure says so, --gate-log exits 1
	run_both -1 "$BIN/measure" --gate-log "$D/none.log"
	assert_output "measure: cannot read $D/none.log: No such file or directory"
	gated_measure "$D/none.log"
	assert_line "  Calibration gate (20 ms, 1 worker, key inode): its log cannot be read: No such file or directory"
}

@test "measure.json through its one reader: read back; a changed layout fails every consumer, field named" {
	# measure.json: measure --figures and make compare read it back through its one reader; its layout changed, every consumer fails through it, naming the field
	mac_measure a
	run_both -0 "$BIN/measure" --figures "$D/a"
	assert_line $'wall_s\t4'
	assert_line $'fresh_launches\t12'
	# the figures as measure.json holds them (one jq for the three)
	local penalty queue busy want
	{ read -r penalty && read -r queue && read -r busy; } < <(jq -r '.penalty_ms.median, .checks_queue, .checker_busy_s.median' "$D/a/measure.json")
	# (printf -v: no $( ))
	printf -v want 'penalty_ms\t%.6g' "$penalty"
	assert_line "$want"
	printf -v want 'checks_queue\t%s' "$queue"
	assert_line "$want"
	printf -v want 'checker_busy_s\t%.6g' "$busy"
	assert_line "$want"
	run_both -0 "$BIN/measure" --figures "$D/a/measure.json"
	run_both -0 "$BIN/mcompare" "$D/a" "$D/a/measure.json"
	assert_line --regexp '^N +9 to 12 +9 to 12$'
	local filter why c n=0 filters=() whys=()
	# the rows, their changed copies and each read by both consumers (run
	# by kit_untraced: without bats' trace of each command, some 0.3 ms
	# each; a failure is reported at its call below)
	changed_jsons() {
		# jq filter # what the reader says (after "PATH")
		while IFS='#' read -r filter why; do
			filters+=("$filter")
			whys+=("$why")
		done <<'ROWS'
.wall_ms = .wall_s | del(.wall_s)# has no wall_s
.schema_version = 2# has schema_version another; this kit reads 1
.fresh_launches = "12"#: fresh_launches is missing, or neither a whole number nor null
del(.penalty_verdict)#: penalty_verdict is missing, or not slowdown, none, inconclusive or null
.penalty_ms = {median: .penalty_ms.median}#: penalty_ms is missing, or neither an interval nor null
.checker_busy_s.ci_low = "1"#: checker_busy_s is missing, or neither an interval nor null
del(.share_capped)#: share_capped or bottleneck is missing or not true or false
.checks_queue = "queued"#: checks_queue is not serialised, parallel, undetermined or null
.services = {}#: services is missing, or neither an array nor null
.conditions = []#: conditions is missing or not an object
.exit = {code: 0}#: exit.status is missing or not a whole number
.penalty_at_size = {verdict: "maybe"}#: penalty_at_size.verdict is missing, or not slowdown, none, inconclusive or null
ROWS
		# each row's changed copy, a line of one jq's output (compact: a JSON
		# reader's layout is its fields, not its spaces)
		local prog="" l
		for filter in "${filters[@]}"; do prog="$prog${prog:+, }($filter)"; done
		while IFS= read -r l; do
			printf '%s\n' "$l" >"$BATS_TEST_TMPDIR/changed.$n.json"
			n=$((n + 1))
		done < <(jq -c "$prog" "$D/a/measure.json")
		assert_equal "$n" "${#filters[@]}"
		for ((n = 0; n < ${#filters[@]}; n++)); do
			c="$BATS_TEST_TMPDIR/changed.$n.json"
			why=${whys[n]}
			run_both -2 "$BIN/mcompare" "$D/a" "$c"
			assert_output "mcompare: B: $c$why"
			run_both -2 "$BIN/measure" --figures "$c"
			assert_output "measure: $c$why"
		done
	}
	kit_untraced changed_jsons
	# and the file as written reads
	run_both -0 "$BIN/mcompare" "$D/a" "$D/a"
}
