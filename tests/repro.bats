#!/usr/bin/env bats
# scripts/repro: refusing bad input, cleaning up after interrupts, and the
# quick profile on this (Linux: control) machine.

load test_helper/common-setup

setup_file() {
	make -C "$BATS_TEST_DIRNAME/.." -s build >/dev/null
}

setup() {
	_common_setup
	D="$BATS_TEST_TMPDIR"
	mkdir -p "$D/tmp" "$D/results"
	export TMPDIR="$D/tmp" RESULTS="$D/results"
}

# The last run was refused: exit 2, one stderr line, nothing left behind.
assert_refused_clean() {
	assert_equal "$status" 2
	assert_equal "$(printf '%s\n' "$stderr" | wc -l | tr -d ' ')" 1
	assert_equal "$(find "$D/tmp" -mindepth 1 | wc -l | tr -d ' ')" 0
	assert_equal "$(find "$D/results" -name run.json | wc -l | tr -d ' ')" 0
	assert_equal "$(find "$D/results" -mindepth 1 | wc -l | tr -d ' ')" 0
}

@test "an unknown case is refused with one line and exit 2" {
	run --separate-stderr sh "$ROOT/scripts/repro" --cases exe,nosuchcase
	assert_refused_clean
	[[ "$stderr" == *"unknown case 'nosuchcase'"* ]]
}

@test "THREADS=0 and THREADS=abc are refused" {
	for t in 0 abc -1 2x; do
		THREADS=$t run --separate-stderr sh "$ROOT/scripts/repro"
		assert_refused_clean
		[[ "$stderr" == *"THREADS"* ]]
	done
}

@test "a count of 0, negative or absurd is refused" {
	for c in 0 -3 1e9 1000000000 abc; do
		COUNT=$c run --separate-stderr sh "$ROOT/scripts/repro"
		assert_refused_clean
		[[ "$stderr" == *"COUNT"* ]]
	done
}

@test "more threads than artifacts is refused" {
	COUNT=6 THREADS=8 run --separate-stderr sh "$ROOT/scripts/repro"
	assert_refused_clean
	[[ "$stderr" == *"THREADS 8 exceeds COUNT 6"* ]]
}

@test "a thread count, case, class or gate setting given twice is refused up front" {
	for args in "--threads 1,1" "--threads 2,1,02" "--cases exe,script,exe" "--classes all,all"; do
		# shellcheck disable=SC2086
		run --separate-stderr sh "$ROOT/scripts/repro" --cases exe $args
		assert_refused_clean
		[[ "$stderr" == *"twice"* ]] || fail "$args: $stderr"
	done
	THREADS=1,1 run --separate-stderr sh "$ROOT/scripts/repro" --cases exe
	assert_refused_clean
	assert_equal "$stderr" "execlag: THREADS names 1 twice"
	run --separate-stderr sh "$ROOT/scripts/repro" --gate "latency=1 workers=1 latency=2"
	assert_refused_clean
	assert_equal "$stderr" "execlag: GATE sets latency twice"
}

@test "a COUNT too small for an interval names COUNT and the rule, not THREADS" {
	min=$(sed -n 's/^#define MIN_PAIRS[[:space:]]*\([0-9]*\).*/\1/p' "$ROOT/micro/thresholds.h")
	for c in 1 $((min - 1)); do
		COUNT=$c run --separate-stderr sh "$ROOT/scripts/repro" --cases exe
		assert_refused_clean
		[[ "$stderr" == *"COUNT $c "* ]] || fail "$stderr"
		[[ "$stderr" == *"$min"*"MIN_PAIRS"* ]] || fail "$stderr"
		[[ "$stderr" != *THREADS* ]] || fail "$stderr"
	done
}

@test "a bad TMPDIR gives the kit's one line only, naming TMPDIR and why" {
	: >"$D/file"
	for t in "$D/nonexistent" "$D/file"; do
		TMPDIR=$t run --separate-stderr sh "$ROOT/scripts/repro" --cases exe --threads 1
		assert_equal "$status" 2
		assert_equal "$stderr" "execlag: TMPDIR '$t' is not a folder"
		assert_equal "$(find "$D/results" -mindepth 1 | wc -l | tr -d ' ')" 0
	done
	if [ "$(id -u)" != 0 ]; then
		mkdir "$D/ro" && chmod 555 "$D/ro"
		TMPDIR=$D/ro run --separate-stderr sh "$ROOT/scripts/repro" --cases exe --threads 1
		assert_equal "$status" 2
		assert_equal "$stderr" "execlag: TMPDIR '$D/ro' is not writable"
	fi
}

@test "CC may hold arguments, as for make; a CC that does not exist is still no C compiler" {
	CC='cc -O0' run --separate-stderr sh "$ROOT/scripts/repro" --cases exe --threads 1 --count 6
	assert_success
	[[ "$stderr" != *"no C compiler"* ]]
	assert_equal "$(find "$D/results" -name run.json | wc -l | tr -d ' ')" 1
	CC='/nonexistent/cc -O0' run --separate-stderr sh "$ROOT/scripts/repro" --cases exe
	assert_equal "$status" 2
	assert_equal "$stderr" "execlag: no C compiler: '/nonexistent/cc -O0' not found (install Xcode command line tools or build-essential, or set CC)"
}

@test "an unwritable results folder is refused" {
	: >"$D/file"
	RESULTS="$D/file/results" run --separate-stderr sh "$ROOT/scripts/repro" --cases exe
	assert_equal "$status" 2
	assert_equal "$(printf '%s\n' "$stderr" | wc -l | tr -d ' ')" 1
	[[ "$stderr" == *"not writable"* ]]
	assert_equal "$(find "$D/tmp" -mindepth 1 | wc -l | tr -d ' ')" 0
}

@test "no C compiler is refused with one line" {
	CC=/nonexistent/cc run --separate-stderr sh "$ROOT/scripts/repro" --cases exe
	assert_refused_clean
	[[ "$stderr" == *"no C compiler"* ]]
}

@test "an unknown profile, class or option is refused" {
	run --separate-stderr sh "$ROOT/scripts/repro" --profile huge
	assert_refused_clean
	run --separate-stderr sh "$ROOT/scripts/repro" --classes X
	assert_refused_clean
	run --separate-stderr sh "$ROOT/scripts/repro" --frobnicate
	assert_refused_clean
}

@test "make repro passes bad input through with exit status 2" {
	run --separate-stderr make -s -C "$ROOT" repro THREADS=0
	assert_equal "$status" 2
	[[ "$stderr" == *"THREADS '0'"* ]]
	assert_equal "$(find "$D/results" -name run.json | wc -l | tr -d ' ')" 0
}

@test "an interrupt mid-run leaves no artifacts and no half-written result" {
	# job control on, so the background shell does not start with SIGINT
	# ignored (POSIX asynchronous lists ignore it otherwise)
	set -m
	sh "$ROOT/scripts/repro" --cases exe,script --count 200 >"$D/out" 2>"$D/err" &
	pid=$!
	set +m
	# wait until fresh artifacts exist, then interrupt
	i=0
	while [ "$(find "$D/tmp" -type f 2>/dev/null | wc -l)" -lt 3 ] && [ $i -lt 100 ]; do
		sleep 0.1
		i=$((i + 1))
	done
	kill -INT "$pid"
	rc=0
	wait "$pid" || rc=$?
	assert_equal "$rc" 130
	assert_equal "$(find "$D/tmp" -mindepth 1 | wc -l | tr -d ' ')" 0
	assert_equal "$(find "$D/results" -mindepth 1 | wc -l | tr -d ' ')" 0
	# and no instrument is left running
	run pgrep -f "$D/tmp"
	assert_failure
}

@test "the quick profile on this Linux control machine finds no penalty in any case" {
	[ "$(uname -s)" = Linux ] || skip "the no-penalty control applies to plain Linux"
	run sh "$ROOT/scripts/repro" --profile quick
	assert_success
	run_dir=$(find "$D/results" -mindepth 1 -maxdepth 1 -type d)
	noisy=$(inconclusive_cases "$run_dir/run.json")
	if [ -n "$noisy" ]; then
		echo "# inconclusive ($noisy) on a busy machine; running it again once" >&3
		rm -rf "$run_dir"
		run sh "$ROOT/scripts/repro" --profile quick
		assert_success
		run_dir=$(find "$D/results" -mindepth 1 -maxdepth 1 -type d)
	fi
	[ -f "$run_dir/run.json" ]
	[ -f "$run_dir/report.md" ]
	assert_equal "$(find "$D/tmp" -mindepth 1 | wc -l | tr -d ' ')" 0
	# every case ran, and every verdict is none
	assert_equal "$(jq '[.cases[] | select(.verdict != "none")] | length' "$run_dir/run.json")" 0
	assert_equal "$(jq '.cases | length' "$run_dir/run.json")" "$(ls "$ROOT/cases" | grep -c -v -e quarantined -e '^suite\.')"
	# the suite case has its own block, with no measurable first-launch cost
	assert_equal "$(jq '[.suite.runs[] | select(.verdict == "slowdown")] | length' "$run_dir/run.json")" 0
	assert_equal "$(jq '.suite.runs | length > 0' "$run_dir/run.json")" true
	# and the run.json it left validates against the documented schema
	why=$(schema_skip_reason)
	[ -n "$why" ] || run -0 validate_run_json "$run_dir/run.json"
}
