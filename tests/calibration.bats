#!/usr/bin/env bats
# The calibration gate's settings, refused before anything runs (Linux; no
# root or fanotify needed).  The kit against known truth under the gate is
# make test-live's: tests/live/calibration.bats.

load test_helper/common-setup
load test_helper/quickrun

setup() {
	_common_setup
	D="$BATS_TEST_TMPDIR"
}

@test "bad gate settings are refused with one line and exit 2" {
	[ "$(uname -s)" = Linux ] || skip "the calibration gate is Linux-only"
	local g nl
	mkdir -p "$D/tmp" "$D/results"
	# (stderr's lines counted as printf '%s\n' | wc -l counts them, its
	# newlines and one, by the shell; nothing left in either folder by
	# assert_empty's globs: no wc, tr or find)
	for g in 'latency=-1' 'workers=0' 'key=size' 'latency=abc' 'speed=3'; do
		TMPDIR="$D/tmp" RESULTS="$D/results" run_sep sh "$ROOT/scripts/repro" --gate "$g"
		assert_equal "$status" 2
		nl=${stderr//[!$'\n']/}
		assert_equal "$((${#nl} + 1))" 1
		assert_empty "$D/tmp" "$D/results"
	done
	# the gate itself, on a folder that does not exist
	run_sep "$BIN/gate" --dir "$D/no/such/folder" --latency-ms 5 --workers 1 --key inode
	assert_equal "$status" 2
	nl=${stderr//[!$'\n']/}
	assert_equal "$((${#nl} + 1))" 1
}

