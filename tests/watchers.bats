#!/usr/bin/env bats
# What watches the launches on Linux: the fanotify listeners and known agents
# that scripts/probe/sysinfo records (tests/sysinfo.bats), as make feedback says
# them for a Linux run.

load test_helper/common-setup

setup() {
	_common_setup
	D=$BATS_TEST_TMPDIR
	[ -x "$BIN/fbtext" ] || fail "$BIN/fbtext is missing: run 'make'"
}

# linux_run DIR JQ: the compare fixture's online run made a Linux run, edited by JQ
linux_run() {
	mkdir -p "$1"
	jq '.conditions += {os: "Linux", os_name: "Debian GNU/Linux 12 (bookworm)", sip: "n/a"}'" | $2" \
		"$FIXTURES/compare/online/run.json" >"$1/run.json"
}

@test "make feedback on a Linux run under ClamAV says which agent was active, and whose the cost is" {
	linux_run "$D/r" '.conditions += {fanotify_listeners: "clamonacc (1)", agents: "ClamAV on-access scanning (clamonacc)"}'
	run -0 "$BIN/fbtext" --run "$D/r"
	assert_line "Watching exec and open during this run (fanotify listeners): clamonacc (1)."
	assert_line "Known scanners and agents running: ClamAV on-access scanning (clamonacc). A first-launch cost in"
	assert_line --partial "NOT FOR FILING WITH APPLE"
	refute_output --partial "on this Mac"
}

@test "make feedback on a plain Linux run says no listener, and names no agent" {
	linux_run "$D/r" '.conditions += {fanotify_listeners: "none", agents: "none"}'
	run -0 "$BIN/fbtext" --run "$D/r"
	assert_line "Watching exec and open during this run (fanotify listeners): none."
	refute_output --partial "Known scanners"
	# a run from before the kit read them says nothing about them
	linux_run "$D/old" '.'
	run -0 "$BIN/fbtext" --run "$D/old"
	refute_output --partial "fanotify"
}
