#!/usr/bin/env bats
# The calibration gate's settings, refused before anything runs (Linux; no
# root or fanotify needed).  The kit against known truth under the gate is
# make test-live's: tests/live/calibration.bats.

load test_helper/common-setup

setup() {
	_common_setup
	D="$BATS_TEST_TMPDIR"
}

@test "bad gate settings are refused with one line and exit 2" {
	[ "$(uname -s)" = Linux ] || skip "the calibration gate is Linux-only"
	mkdir -p "$D/tmp" "$D/results"
	for g in 'latency=-1' 'workers=0' 'key=size' 'latency=abc' 'speed=3'; do
		TMPDIR="$D/tmp" RESULTS="$D/results" run --separate-stderr sh "$ROOT/scripts/repro" --gate "$g"
		assert_equal "$status" 2
		assert_equal "$(printf '%s\n' "$stderr" | wc -l | tr -d ' ')" 1
		assert_equal "$(find "$D/tmp" "$D/results" -mindepth 1 | wc -l | tr -d ' ')" 0
	done
	# the gate itself, on a folder that does not exist
	run --separate-stderr "$BIN/gate" --dir "$D/no/such/folder" --latency-ms 5 --workers 1 --key inode
	assert_equal "$status" 2
	assert_equal "$(printf '%s\n' "$stderr" | wc -l | tr -d ' ')" 1
}

