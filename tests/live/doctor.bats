#!/usr/bin/env bats
# make doctor with real launches: under the calibration gate at a Mac's
# 150 ms (Linux, root, fanotify) it must find the penalty, within about five
# seconds with its build done; on this machine without a gate it must never
# call a penalty where nothing holds a new program.  Skips, saying why,
# where the gate cannot run.

load ../test_helper/common-setup

setup_file() {
	gate_probe
	make -C "$BATS_TEST_DIRNAME/../.." -s micro/bin/mkfresh micro/bin/launch micro/bin/analyze \
		micro/bin/advise micro/bin/devtools >/dev/null
}

setup() {
	_common_setup
	export TMPDIR="$BATS_TEST_TMPDIR"
}

@test "under the gate at 150 ms: a penalty near 150 ms, exit 1, in under ten seconds" {
	[ -z "$GATE_SKIP" ] || skip "$GATE_SKIP"
	local t0 t1 last pen
	t0=$(date +%s)
	run --separate-stderr sh "$ROOT/scripts/doctor" --gate 'latency=150 workers=1 key=inode'
	t1=$(date +%s)
	assert_equal "$status" 1
	last=${lines[${#lines[@]} - 1]}
	[[ "$last" =~ ^verdict:\ penalty\ ([0-9.]+)\ ms\ \[ ]] || fail "last line: $last"
	pen=${BASH_REMATCH[1]}
	awk -v p="$pen" 'BEGIN { exit !(p >= 140 && p <= 200) }' || fail "penalty $pen ms, want about 150"
	[ $((t1 - t0)) -lt 10 ] || fail "took $((t1 - t0)) s"
	echo "# doctor under a 150 ms gate: $last, $((t1 - t0)) s" >&3
}

# exhausted=1 (issue 43): the gate refuses every check (FAN_DENY), so the
# health record's assessment (a new program executed in the work folder)
# and every launch of the probe fail with EPERM: the checker exhausted,
# exit 5, within the doctor's bound, no Developer Tools advice, and the
# gate's log (kept by make repro under the same gate) says refused.
@test "under the gate exhausted=1: a real refusal, checker exhausted, exit 5 within 15 s" {
	[ -z "$GATE_SKIP" ] || skip "$GATE_SKIP"
	local t0 t1 d
	t0=$(date +%s)
	run --separate-stderr sh "$ROOT/scripts/doctor" --gate 'latency=20 workers=1 key=inode exhausted=1'
	t1=$(date +%s)
	assert_equal "$status" 5
	assert_line --index 0 "checker: exhausted — a new program in the work folder (the gate's assessment) was refused (Operation not permitted)"
	assert_line "gate: the calibration gate refused every launch it held (exhausted=1: FAN_DENY, the exec fails with EPERM)"
	assert_line --regexp '^probe: new programs \(exe\), each to be launched twice, one at a time: none ran '
	assert_line --regexp '^cause: the calibration gate refuses every check \(exhausted=1\)'
	refute_line --partial "Developer Tools ›"
	[ $((t1 - t0)) -le 15 ] || fail "took $((t1 - t0)) s"
	echo "# doctor under the exhausted gate: exit $status, $((t1 - t0)) s" >&3
	# the same refusal in a run: its record, conditions and the gate's log
	run -0 sh "$ROOT/scripts/repro" --profile doctor --results "$BATS_TEST_TMPDIR/results" \
		--gate 'latency=20 workers=1 key=inode exhausted=1'
	d=$(find "$BATS_TEST_TMPDIR/results" -mindepth 1 -maxdepth 1 -type d)
	run -0 grep -x -e 'checker.state=exhausted' -e 'checker.record=gate' -e 'checker.assess=refused' \
		-e 'gate.exhausted=1' "$d/conditions.txt"
	assert_equal "${#lines[@]}" 4
	run -0 grep -c '"result":"refused"' "$d/gate.log"
	[ "$output" -ge 9 ] || fail "$output refusals in the gate's log"
	# every held check refused, none held for the latency
	run grep -c '"result":"miss"' "$d/gate.log"
	assert_output 0
}

@test "under the gate with the kit exempt: none or unclear, never a penalty" {
	[ -z "$GATE_SKIP" ] || skip "$GATE_SKIP"
	run --separate-stderr sh "$ROOT/scripts/doctor" --gate 'latency=150 workers=1 key=inode exempt=1'
	[ "$status" = 0 ] || [ "$status" = 3 ] || fail "exit $status: $output"
}

@test "on this machine without a gate or a listener: none or unclear, never a penalty" {
	run -0 sh "$ROOT/scripts/probe/sysinfo"
	if ! printf '%s\n' "$output" | grep -qx 'fanotify_listeners=none'; then
		skip "something may hold launches here: $(printf '%s\n' "$output" | grep '^fanotify_listeners=')"
	fi
	run --separate-stderr sh "$ROOT/scripts/doctor"
	[ "$status" = 0 ] || [ "$status" = 3 ] || fail "exit $status: $output"
	[[ "${lines[${#lines[@]} - 1]}" == verdict:* ]] || fail "last line: ${lines[${#lines[@]} - 1]}"
}
