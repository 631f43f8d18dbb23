# gate.bash - `load ../test_helper/gate`: the real calibration gate run
# by a live test (tests/live/gate.bats, tests/live/placements.bats): on $D,
# its log in $GATE_LOG, its pid in GATE_PID, killed at the test's end.

teardown() {
	if [ -n "${GATE_PID:-}" ] && kill -0 "$GATE_PID" 2>/dev/null; then
		kill -KILL "$GATE_PID" 2>/dev/null || true
		wait "$GATE_PID" 2>/dev/null || true
	fi
}

# start_gate OPTION...: run the gate on $D in the background, logging to
# $GATE_LOG, and wait (up to 5 s) until its marks are in place.
start_gate() {
	local i
	rm -f "$BATS_TEST_TMPDIR/ready" "$GATE_LOG"
	"$GATE" --dir "$D" --log "$GATE_LOG" --ready-file "$BATS_TEST_TMPDIR/ready" "$@" \
		>"$BATS_TEST_TMPDIR/gate.out" 2>"$BATS_TEST_TMPDIR/gate.err" 3>&- &
	GATE_PID=$!
	for i in $(seq 1 100); do
		[ -e "$BATS_TEST_TMPDIR/ready" ] && return 0
		if ! kill -0 "$GATE_PID" 2>/dev/null; then
			cat "$BATS_TEST_TMPDIR/gate.err" >&2
			fail "gate exited before it was ready"
		fi
		sleep 0.05
	done
	fail "gate not ready within 5 s"
}

# stop_gate: SIGTERM, wait; GATE_STATUS gets the exit status.
stop_gate() {
	GATE_STATUS=0
	kill -TERM "$GATE_PID"
	wait "$GATE_PID" || GATE_STATUS=$?
	GATE_PID=""
}

