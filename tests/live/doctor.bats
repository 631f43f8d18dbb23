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
