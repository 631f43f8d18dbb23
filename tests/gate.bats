#!/usr/bin/env bats
# micro/gate's options: the checks that run everywhere on Linux, before any
# fanotify mark (no root needed).  The gate's own truth tests - holds,
# keys, workers, signals, the kit's watchdog - need root and fanotify and
# are make test-live's: tests/live/gate.bats.

load test_helper/common-setup
load test_helper/quickrun

setup() {
	_common_setup
	GATE="$BIN/gate"
	D="$BATS_TEST_TMPDIR/dir"
	mkdir -p "$D"
}

# ---- options (no fanotify needed) -----------------------------------------

@test "--help prints the usage on stdout and exits 0" {
	[ "$(uname -s)" = Linux ] || skip "the calibration gate is Linux-only (fanotify)"
	run_sep "$GATE" --help
	assert_success
	assert_output --partial "usage: gate --dir DIR [--dir DIR]... --latency-ms MS --workers W"
	[ -z "$stderr" ]
}

@test "bad settings exit 2 with exactly one stderr line, before marking" {
	[ "$(uname -s)" = Linux ] || skip "the calibration gate is Linux-only (fanotify)"
	touch "$BATS_TEST_TMPDIR/afile"
	local ok="--workers 1 --key inode"
	local -a cases=(
		"--dir $D --latency-ms -1 $ok"
		"--dir $D --latency-ms 60001 $ok"
		"--dir $D --latency-ms 1.5.2 $ok"
		"--dir $D --latency-ms nan $ok"
		"--dir $D --latency-ms abc $ok"
		"--dir $D --latency-ms 10 --workers 0 --key inode"
		"--dir $D --latency-ms 10 --workers 65 --key inode"
		"--dir $D --latency-ms 10 --workers 1 --key size"
		"--dir $BATS_TEST_TMPDIR/missing --latency-ms 10 $ok"
		"--dir $BATS_TEST_TMPDIR/afile --latency-ms 10 $ok"
		"--latency-ms 10 $ok"
		"--dir $D $ok"
		"--dir $D --latency-ms 10 --key inode"
		"--dir $D --latency-ms 10 --workers 1"
		"--dir $D --latency-ms 10 $ok --exempt-pid 0"
		"--dir $D --latency-ms 10 $ok --exhausted 2"
		"--dir $D --latency-ms 10 $ok --bogus"
		"--dir $D --latency-ms 10 $ok extra"
		"--dir $D --latency-ms 10 $ok --kill 1.5"
		"--dir $D --latency-ms 10 $ok --kill -0.1"
		"--dir $D --latency-ms 10 $ok --kill half"
	)
	local c
	for c in "${cases[@]}"; do
		# shellcheck disable=SC2086
		run_sep "$GATE" $c
		echo "case: $c -> status $status, stderr: $stderr"
		[ "$status" -eq 2 ]
		[ "${#stderr_lines[@]}" -eq 1 ]
		[[ "${stderr_lines[0]}" == "gate: "* ]]
		[ -z "$output" ]
	done
	run_sep "$GATE" --dir "$D" --latency-ms -1 --workers 1 --key inode
	[ "$stderr" = "gate: --latency-ms must be a number of ms in 0..60000 (e.g. 20 or 0.5): -1" ]
	run_sep "$GATE" --dir "$D" --latency-ms 5 --workers 1 --key size
	[ "$stderr" = "gate: --key must be inode, path, content or inode-mtime: size" ]
	run_sep "$GATE" --dir "$D" --latency-ms 5 --workers 1 --key inode-mtime --kill 2
	[ "$stderr" = "gate: --kill must be a share in 0..1 (e.g. 0.25): 2" ]
}

@test "without CAP_SYS_ADMIN: exit 2, one line naming the reason" {
	[ "$(uname -s)" = Linux ] || skip "the calibration gate is Linux-only (fanotify)"
	if [ "$(id -u)" = 0 ]; then
		command -v setpriv >/dev/null || skip "setpriv not installed (needed to drop root)"
		# --dir /: reachable by anyone, so only fanotify can refuse.
		run_sep setpriv --reuid=65534 --regid=65534 --clear-groups \
			--inh-caps=-all --bounding-set=-all \
			"$GATE" --dir / --latency-ms 10 --workers 1 --key inode
	else
		run_sep "$GATE" --dir "$D" --latency-ms 10 --workers 1 --key inode
	fi
	echo "stderr: $stderr"
	[ "$status" -eq 2 ]
	[ "${#stderr_lines[@]}" -eq 1 ]
	[[ "$stderr" == "gate: fanotify unavailable: "*"needs root / CAP_SYS_ADMIN"* ]]
	[ -z "$output" ]
}

