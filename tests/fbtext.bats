#!/usr/bin/env bats
# micro/fbtext alone: the text of feedback.txt from a run.json, as
# scripts/feedback asks for it (tests/feedback.bats checks the feedback.txt
# make feedback writes, redacted, end to end).  Runs: the compare fixture's
# online run, edited here.

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

# ---- what watches the launches on Linux: the fanotify listeners and known
# agents that scripts/probe/sysinfo records (tests/sysinfo.bats), as
# feedback.txt says them for a Linux run

# (two tests of a Linux run's listeners and agents, one test)
@test "fbtext on a Linux run: ClamAV active and whose the cost is; a plain one: no listener, no agent" {
	# (was: "fbtext on a Linux run under ClamAV says which agent was active, and whose the cost is")
	linux_run "$D/r" '.conditions += {fanotify_listeners: "clamonacc (1)", agents: "ClamAV on-access scanning (clamonacc)"}'
	run -0 "$BIN/fbtext" --run "$D/r"
	assert_line "Watching exec and open during this run (fanotify listeners): clamonacc (1)."
	assert_line "Known scanners and agents running: ClamAV on-access scanning (clamonacc). A first-launch cost in"
	assert_line --partial "NOT FOR FILING WITH APPLE"
	refute_output --partial "on this Mac"
	# (was: "fbtext on a plain Linux run says no listener, and names no agent")
	linux_run "$D/plain" '.conditions += {fanotify_listeners: "none", agents: "none"}'
	run -0 "$BIN/fbtext" --run "$D/plain"
	assert_line "Watching exec and open during this run (fanotify listeners): none."
	refute_output --partial "Known scanners"
	# a run from before the kit read them says nothing about them
	linux_run "$D/old" '.'
	run -0 "$BIN/fbtext" --run "$D/old"
	refute_output --partial "fanotify"
}

# ---- the kit that made it ----------------------------------------------------------

@test "fbtext names the commit, remote and home page it is given; a bad --logs is one line, exit 2" {
	local r="$FIXTURES/compare/online"
	# fbtext says a home page and a remote where it is given them
	run -0 "$BIN/fbtext" --run "$r" --kit 0123456789ab --from https://example.org/x/execlag.git --home https://example.org/execlag
	assert_line "1. With the execlag kit (execlag 0.1.0, commit 0123456789ab, git remote https://example.org/x/execlag.git, home page https://example.org/execlag), from its folder, the settings of this run:"
	run -0 "$BIN/fbtext" --run "$r"
	assert_line "1. With a copy of execlag 0.1.0 (not a git checkout), from its folder, the settings of this run:"
	run --separate-stderr "$BIN/fbtext" --run "$r" --logs 12
	assert_equal "$status" 2
	assert_equal "$stderr" "fbtext: --logs needs KEPT,TOTAL in bytes, not '12' (try --help)"
}
