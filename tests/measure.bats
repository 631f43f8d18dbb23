#!/usr/bin/env bats
# make measure / scripts/measure: one command's wall time W, the new
# programs it launched N, the price of one check L from a probe, the
# checker's busy time B = N x L / (checks at once) and its share of W.
# Deterministic: the probe runs on the simulator (fixed seed: L is exactly
# the model's), macOS's log show and ps are the fakes of the measure-m1
# state (12 checks of the command), and on Linux as root the exec listener
# counts programs a test's command makes.  The gate's physics is the live
# tier's (tests/live/measure.bats).

# bats file_tags=heavy
load test_helper/common-setup
load test_helper/mac-measure

SIM='sim:latency=150 workers=1 key=inode seed=7'
BOTTLENECK="the checks alone took longer than the command: they were its bottleneck"

# One probe for the file, made by a measure as any (scripts/measure on the
# simulator, SIM) on an empty EXECLAG_SYSROOT: the tests whose subject is
# not the probe but the measure around it copy it (shared_probe) and reuse
# it (--probe 0: the latest comparable run; the same empty sysroot keeps
# the fanotify listeners and agents of other processes on this machine out
# of the comparison).  A probe is a run of the kit, some seconds each; the
# tests of the probe itself (its run, its lines, its interrupt, L at the
# programs' size) still make their own.
# shared_folders NAME: in setup_file's subshell, the folders a test would
# have (ROOT, D=$SHARED/NAME, its proj, tmp and results), made, with
# measure-m1's state on PATH
shared_folders() {
	ROOT=$(cd "$BATS_TEST_DIRNAME/.." && pwd)
	D="$SHARED/$1"
	P="$D/proj"
	TMPDIR="$D/tmp" RESULTS="$D/results"
	export ROOT TMPDIR RESULTS
	mkdir -p "$P" "$TMPDIR" "$RESULTS"
	mac_state measure-m1
}

setup_file() {
	SHARED="$BATS_FILE_TMPDIR/shared"
	mkdir -p "$SHARED/p" "$SHARED/results" "$SHARED/tmp" "$SHARED/sysroot"
	(cd "$SHARED/p" && EXECLAG_SYSROOT="$SHARED/sysroot" RESULTS="$SHARED/results" TMPDIR="$SHARED/tmp" \
		exec sh "$BATS_TEST_DIRNAME/../scripts/measure" --launcher "$SIM" -- true) \
		>"$SHARED/out" 2>"$SHARED/err" 3>&- && echo 0 >"$SHARED/status" || echo "$?" >"$SHARED/status"
	# L at the programs' size: one measure of a command whose programs (in
	# measure-m1's log) are 8 MiB, so a probe and a second one at their
	# size, for the test of it and the schema's (mac_state and sized_files
	# below, in the folders a test would have)
	(
		shared_folders size
		sized_files 8388608
		cd "$P" && exec sh "$ROOT/scripts/measure" --launcher 'sim:latency=150 workers=1 key=inode seed=7 per_mb=10' -- sleep 1
	) >"$SHARED/size.out" 2>"$SHARED/size.err" 3>&- && echo 0 >"$SHARED/size.status" || echo "$?" >"$SHARED/size.status"
	# a measure of measure-m1's 12 checks on the file's probe, as
	# measure_reusing makes it (mac_state measure-m1, then measure --probe 0
	# --launcher "$SIM" -- true, EXECLAG_SYSROOT the probe's), in the folders
	# a test would have: the tests that only read such a measure (the
	# bottleneck, the schema's, the remedy without a remedies run) read it
	(
		shared_folders m1
		cp -R "$(find "$SHARED/results" -mindepth 1 -maxdepth 1 -name '*-probe')" "$RESULTS/"
		cd "$P" && EXECLAG_SYSROOT="$SHARED/sysroot" exec sh "$ROOT/scripts/measure" --probe 0 --launcher "$SIM" -- true
	) >"$SHARED/m1.out" 2>"$SHARED/m1.err" 3>&- && echo 0 >"$SHARED/m1.status" || echo "$?" >"$SHARED/m1.status"
	export SHARED
}

# m1_measure: the file's measure of measure-m1's 12 checks on the file's
# probe (setup_file) as this test's, as measure_reusing would have made it:
# status, output, stderr, and D, P, TMPDIR and RESULTS its folders
m1_measure() {
	D="$SHARED/m1" P="$SHARED/m1/proj" TMPDIR="$SHARED/m1/tmp" RESULTS="$SHARED/m1/results"
	status=$(cat "$SHARED/m1.status")
	stderr=$(cat "$SHARED/m1.err")
	output=$(cat "$SHARED/m1.out")
	[[ "$stderr" == *"PROBE=0: L from the latest comparable run, "*"-probe"* ]] || fail "the file's probe was not taken: $stderr"
}

# shared_probe: the file's probe (setup_file) in this test's results; the
# measures that reuse it run with EXECLAG_SYSROOT="$SHARED/sysroot"
shared_probe() {
	local pr
	[ "$(cat "$SHARED/status")" = 0 ] || fail "the file's probe failed: $(cat "$SHARED/err")"
	pr=$(find "$SHARED/results" -mindepth 1 -maxdepth 1 -name '*-probe')
	[ -f "$pr/run.json" ] || fail "the file's probe made no run: $(cat "$SHARED/err")"
	cp -R "$pr" "$RESULTS/"
}

# measure_reusing ARGS...: measure --probe 0 ARGS on the file's probe, which
# it must take (its L, named on stderr)
measure_reusing() {
	shared_probe
	EXECLAG_SYSROOT="$SHARED/sysroot" measure --probe 0 "$@"
	[[ "$stderr" == *"PROBE=0: L from the latest comparable run, "*"-probe"* ]] || fail "the file's probe was not taken: $stderr"
}

setup() {
	_common_setup
	_run_folders_setup
	P="$D/proj"
	mkdir -p "$P"
	for p in execwatch measure launch; do
		[ -x "$BIN/$p" ] || fail "$BIN/$p is missing: run 'make build'"
	done
}

# measure ARGS...: scripts/measure in the project folder, stdout and stderr
# apart ($output is the command's, $stderr the measure's).
# (a function run in run's own subshell: the cd stays there, and no bash
# is started for it)
measure() {
	run --separate-stderr measure_in_p "$@"
}
measure_in_p() {
	cd "$P" && exec sh "$ROOT/scripts/measure" "$@"
}

# the one measure made (its folder), and a field of its measure.json
the_measure() {
	local m
	m=$(find "$RESULTS" -mindepth 2 -maxdepth 2 -name measure.json)
	[ "$(printf '%s\n' "$m" | grep -c .)" = 1 ] || fail "not one measure in $RESULTS: $m"
	M=$(dirname "$m")
}
field() {
	jq -r "$1" "$M/measure.json"
}
# field_of_only_measure JQ: field JQ of the one measure in the results
field_of_only_measure() {
	the_measure
	field "$1"
}
# probe_l WHICH: the probe run's exe penalty (median, ci_low, ci_high), as
# analyze wrote it: what L must be
probe_l() {
	jq -r ".cases[] | select(.name == \"exe\") | .penalty_ms.$1" "$(find "$RESULTS" -maxdepth 1 -name '*-probe' | tail -n 1)/run.json"
}

# nothing_left: no half-written measure, no probe work folder, no run
# being made
nothing_left() {
	assert_equal "$(find "$RESULTS" -name '.*.partial')" ""
	assert_equal "$(find "$P" -maxdepth 1 -name '.execlag-probe.*')" ""
	assert_equal "$(find "$TMPDIR" -mindepth 1 -maxdepth 1 -name 'execlag-measure.*')" ""
}

# mac_state NAME: a copy of the fake state NAME whose project folder
# (/Users/jappleseed/src/app) and TMPDIR
# (/private/var/folders/zz/zyxvpxvq6csfxvn_n0000000000000/T) are this
# test's, and a PATH folder holding only the fake log and ps: the rest of
# the machine stays Linux, and the measure reads the log (EXECLAG_LOG) and
# the services (EXECLAG_WATCH_SERVICES)
mac_state() {
	local pp
	pp=$(cd "$P" && pwd -P)
	cp -R "$ROOT/tests/fakes/states/$1" "$D/state"
	if [ -f "$D/state/log.out" ]; then
		sed -e "s|/Users/jappleseed/src/app|$pp|g" \
			-e "s|/private/var/folders/zz/zyxvpxvq6csfxvn_n0000000000000/T|$TMPDIR|g" \
			"$ROOT/tests/fakes/states/$1/log.out" >"$D/state/log.out"
	fi
	mkdir -p "$D/fakebin" "$D/counter"
	ln -s "$ROOT/tests/fakes/bin/ps" "$D/fakebin/ps"
	export FAKE_STATE="$D/state" FAKE_COUNTER_DIR="$D/counter"
	export EXECLAG_LOG="$ROOT/tests/fakes/bin/log" EXECLAG_WATCH_SERVICES=1
	export PATH="$D/fakebin:$PATH"
}

# ---- bad input: one line, exit 2, nothing run -----------------------------------

@test "--help says how the command is run, where, and that DIR defaults to the folder" {
	run -0 sh "$ROOT/scripts/measure" --help
	assert_output --partial "usage: scripts/measure"
	assert_output --partial "never through a shell"
	assert_output --partial "default: this folder"
	assert_output --partial "the folder make runs in"
}

@test "bad input is refused with one line and exit 2, before anything runs" {
	local args
	while IFS='|' read -r args want; do
		eval "set -- $args"
		measure "$@"
		assert_equal "$args: $status" "$args: 2"
		[[ "$stderr" != *$'\n'* ]] || fail "$args: more than one line: $stderr"
		[[ "$stderr" == *"$want"* ]] || fail "$args: $stderr"
		assert_equal "$output" ""
		assert_equal "$(find "$RESULTS" "$TMPDIR" "$P" -mindepth 1)" ""
	done <<'EOF'
--bogus -- true|unknown option '--bogus'
|no command to measure
--|no command to measure
-- ''|the command is empty
--probe 2 -- true|PROBE '2' is not 0 or 1
--dir /no/such/folder -- true|DIR '/no/such/folder' is not a folder
--launcher frob -- true|LAUNCHER 'frob' is not spawn or sim:SETTINGS
--launcher sim:latency=x -- true|LAUNCHER
--gate 'latency=abc' -- true|GATE latency 'abc'
--gate 'workers=0' -- true|GATE workers '0'
--gate 'key=nose' -- true|GATE key 'nose'
--gate 'latency=20 latency=30' -- true|GATE sets latency twice
--gate 'latency=20' --launcher sim:latency=1 -- true|exclude each other
--tag 'a/b' -- true|TAG 'a/b'
--dir|--dir needs a value
EOF
}

@test "make measure without CMD says what it needs, exit 2" {
	run --separate-stderr make -s --no-print-directory -C "$ROOT" measure RESULTS="$RESULTS"
	assert_equal "$status" 2
	[[ "$stderr" == *"make measure needs CMD='your command'"* ]]
	assert_equal "$(find "$RESULTS" -mindepth 1)" ""
}

# ---- the command: untouched output, kept status, arguments as data --------------

@test "the command's output passes through byte for byte, its status is kept, the measure speaks on stderr" {
	printf 'line one\n\ttab\nno newline at the end' >"$D/expected"
	printf 'and on stderr\n' >"$D/expected.err"
	(cd "$P" && sh "$ROOT/scripts/measure" --probe 0 -- sh -c 'cat "$1"; cat "$2" >&2; exit 7' _ "$D/expected" "$D/expected.err" \
		>"$D/out" 2>"$D/err") && rc=0 || rc=$?
	assert_equal "$rc" 7
	cmp "$D/expected" "$D/out"
	head -n 1 "$D/err" | grep -qx 'execlag: PROBE=0 and no comparable run.*' || grep -q '^and on stderr$' "$D/err"
	grep -q '^and on stderr$' "$D/err"
	grep -q '^  W  [0-9.]* s, exit status 7$' "$D/err"
	the_measure
	assert_equal "$(field .exit.status)" 7
	assert_equal "$(field .probe.how)" none
	nothing_left
}

@test "arguments are data: quotes, \$, globs, spaces and a leading - reach the command as given" {
	touch "$P/a-file"
	measure --probe 0 -- printf '%s|' 'two words' '$HOME' '*' '"q"' "it's" '-n' '$(touch nope)' ';'
	assert_success
	assert_equal "$output" "two words|\$HOME|*|\"q\"|it's|-n|\$(touch nope)|;|"
	[ ! -e "$P/nope" ]
	the_measure
	assert_equal "$(field '.command | length')" 10
	assert_equal "$(field '.command[3]')" '$HOME'
}

@test "make measure runs CMD with sh -c as the user's own command, in DIR, make expanding nothing" {
	local d="$D/Bob's \$(x) dir"
	mkdir -p "$d"
	run --separate-stderr make -s --no-print-directory -C "$ROOT" measure PROBE=0 RESULTS="$RESULTS" \
		DIR="$d" CMD='pwd; printf "%s\n" "$(printf made-by-sh)" "$(shell echo make)"; exit 3'
	assert_equal "${lines[0]}" "$(cd "$d" && pwd)"
	assert_equal "${lines[1]}" "made-by-sh"
	# make would have put "make" here; sh runs a command named shell instead
	assert_equal "${lines[2]}" ""
	[[ "$stderr" == *"exit status 3"* ]]
	the_measure
	assert_equal "$(field '.command[0:2] | join(" ")')" "sh -c"
	assert_equal "$(field .dir)" "$(cd "$d" && pwd)"
}

@test "a command that is not found: exit 127, and the measure says it did not run" {
	run -127 --separate-stderr bash -c 'cd "$1" && exec sh "$ROOT/scripts/measure" --probe 0 -- no-such-command-here' _ "$P"
	[[ "$stderr" == *"it did not run (command not found), exit status 127"* ]]
	the_measure
	assert_equal "$(field .exit.not_run)" "command not found"
}

@test "a command killed by a signal: 128 + its number, and the measure is written" {
	measure --probe 0 -- sh -c 'kill -KILL $$'
	assert_equal "$status" 137
	[[ "$stderr" == *"ended by signal 9 (exit status 137)"* ]]
	the_measure
	assert_equal "$(field .exit.signal)" 9
}

# ---- the probe: L on the simulator ------------------------------------------------

# shared_measure: the file's measure (setup_file) as this test's: its
# status, output and stderr, and D, P, TMPDIR and RESULTS its folders (for
# the tests of a plain measure --launcher "$SIM" -- true, which it is)
shared_measure() {
	D=$SHARED P="$SHARED/p" TMPDIR="$SHARED/tmp" RESULTS="$SHARED/results"
	status=$(cat "$SHARED/status")
	stderr=$(cat "$SHARED/err")
	output=$(cat "$SHARED/out")
}

@test "the probe: exe at T=1 and T=2 in a work folder in DIR, a run tagged probe; L is its exe penalty" {
	# the file's measure (setup_file): measure --launcher "$SIM" -- true
	shared_measure
	assert_success
	[[ "$stderr" == *"execlag: probe: the exe case at T=1 and T=2 in $(cd "$P" && pwd)/.execlag-probe."* ]]
	run=$(find "$RESULTS" -maxdepth 1 -name '*-probe')
	[ -f "$run/run.json" ]
	assert_equal "$(jq -r '.cases | map(.name) | join(",")' "$run/run.json")" exe
	assert_equal "$(jq -r '.cases[0].configs | map(.threads) | join(",")' "$run/run.json")" "1,2"
	the_measure
	assert_equal "$(field .probe.how)" ran
	assert_equal "$(field .probe.run_id)" "$(basename "$run")"
	assert_equal "$(field .probe.simulated)" true
	assert_equal "$(field .penalty_ms.median)" "$(jq -r '.cases[0].penalty_ms.median' "$run/run.json")"
	assert_equal "$(field .penalty_ms.ci_low)" "$(jq -r '.cases[0].penalty_ms.ci_low' "$run/run.json")"
	assert_equal "$(field .checks_queue)" serialised
	[[ "$stderr" == *"the probe was SIMULATED"* ]]
	nothing_left
}

@test "PROBE=0 names the latest comparable run, or says there is none" {
	export EXECLAG_SYSROOT="$D/sysroot" # the same (empty) machine for every step
	mkdir -p "$EXECLAG_SYSROOT"
	measure --probe 0 --launcher "$SIM" -- true
	assert_success
	[[ "$stderr" == *"PROBE=0 and no comparable run"* ]]
	[[ "$stderr" == *"  L  unknown: PROBE=0 and no comparable run"* ]]
	rm -rf "${RESULTS:?}"/*
	# a probe a measure made (the file's, on another empty machine root)
	shared_probe
	probe=$(basename "$(find "$RESULTS" -maxdepth 1 -name '*-probe')")
	# another seed is another launcher: not comparable
	measure --probe 0 --launcher 'sim:latency=150 workers=1 key=inode seed=8' -- true
	[[ "$stderr" == *"no comparable run"* ]]
	rm -rf "$(dirname "$(find "$RESULTS" -name measure.json)")"
	measure --probe 0 --launcher "$SIM" -- true
	assert_success
	[[ "$stderr" == *"PROBE=0: L from the latest comparable run, $probe"* ]]
	the_measure
	assert_equal "$(field .probe.how)" reused
	assert_equal "$(field .probe.run_id)" "$probe"
	assert_equal "$(field .penalty_ms.median)" "$(probe_l median)"
	[[ "$stderr" == *"reused: PROBE=0"* ]]
}

# ---- macOS: the unified log and ps, faked byte for byte ---------------------------

@test "macOS: 12 checks, 3 unnamed: N from 9 to 12, B = N x L a range, its share of W, the services' CPU" {
	mac_state measure-m1
	measure_reusing --launcher "$SIM" -- sleep 2
	assert_success
	the_measure
	assert_equal "$(field .fresh_launches)" 12
	assert_equal "$(field .fresh_range.low)" 9
	assert_equal "$(field .fresh_range.high)" 12
	assert_equal "$(field .fresh.programs_named)" 8
	assert_equal "$(field .fresh_source)" "unified log"
	assert_equal "$(field .fresh.programs)" 11
	assert_equal "$(field .fresh.performscan)" 14
	assert_equal "$(field .fresh.others_checks)" 2
	assert_equal "$(field .fresh.checks_unnamed)" 3
	assert_equal "$(field .fresh.evaluate_scan_result)" 18
	assert_equal "$(field '.fresh.others_programs[0]')" "/Applications/Some App.app/Contents/MacOS/Some App"
	assert_equal "$(field .fresh.scans_logged_s)" 2.1
	assert_equal "$(field .checks_at_once)" 1
	assert_equal "$(field .checker_busy_bound)" estimate
	# B = N x L / 1: from 9 x L to 12 x L, its interval from 9 x L's low
	# end to 12 x L's high end
	assert_equal "$(jq -r '(.checker_busy_s.median - 12 * .penalty_ms.median / 1000) | fabs < 1e-5' "$M/measure.json")" true
	assert_equal "$(jq -r '(.checker_busy_range_s.high - 12 * .penalty_ms.median / 1000) | fabs < 1e-5' "$M/measure.json")" true
	assert_equal "$(jq -r '(.checker_busy_range_s.low - 9 * .penalty_ms.median / 1000) | fabs < 1e-5' "$M/measure.json")" true
	assert_equal "$(jq -r '(.checker_busy_s.ci_low - 9 * .penalty_ms.ci_low / 1000) | fabs < 1e-5' "$M/measure.json")" true
	assert_equal "$(jq -r '(.checker_busy_s.ci_high - 12 * .penalty_ms.ci_high / 1000) | fabs < 1e-5' "$M/measure.json")" true
	assert_equal "$(jq -r '(.share_range.low - .checker_busy_range_s.low / .wall_s) | fabs < 1e-5' "$M/measure.json")" true
	# the share is B / W, W the command's 2 s (above B's high end, 12 x 150 ms)
	assert_equal "$(jq -r '.wall_s >= 2 and .wall_s < 3' "$M/measure.json")" true
	assert_equal "$(jq -r '(.share.median - .checker_busy_s.median / .wall_s) | fabs < 1e-5' "$M/measure.json")" true
	assert_equal "$(field .share_capped)" false
	assert_equal "$(jq -r '(.projection.without_checks_s.median - (.wall_s - .checker_busy_s.median)) | fabs < 1e-4' "$M/measure.json")" true
	# ps before and after: XprotectService 3.03 s and a new instance 0.75 s
	assert_equal "$(field '.services[] | select(.name == "XprotectService") | .cpu_s')" 3.78
	assert_equal "$(field '.services[] | select(.name == "syspolicyd") | .cpu_s')" 0.31
	assert_equal "$(cat "$D/counter/ps.count")" 2
	[[ "$stderr" == *"  N  9 to 12 checks (GK performScan) in the command's window: 9 checks of 8 distinct programs in the command's folders, and 3 whose program it does not name"* ]]
	printf -v want '  B  %.2f s to %.2f s [%.2f, %.2f] = N x L / 1 (checks at once)' "$(field .checker_busy_range_s.low)" \
		"$(field .checker_busy_s.median)" "$(field .checker_busy_s.ci_low)" "$(field .checker_busy_s.ci_high)"
	[[ "$stderr" == *"$want"* ]] || fail "no '$want' in $stderr"
	assert_equal "$(field .penalty_ms.median)" "$(probe_l median)"
	[[ "$stderr" == *"Services' CPU during the command: syspolicyd 0.31 s, XprotectService 3.78 s"* ]]
	[[ "$stderr" != *"$BOTTLENECK"* ]]
	# the log was read for the command's window, with the documented predicate
	grep -q '^predicate	process == "syspolicyd" AND subsystem == "com.apple.syspolicy.exec"$' "$M/raw/logcount.tsv"
}

@test "the remedy: B again as the newest make remedies run's placement would place them, a projection" {
	# a make remedies run here first, in the measure's conditions (its
	# sysroot and launcher), then a measure of 12 checks that takes it
	# (PROBE=0 takes the remedies run's exe case for L: it is comparable)
	local rid
	mac_state measure-m1
	EXECLAG_SYSROOT="$SHARED/sysroot" run -0 sh "$ROOT/scripts/remedies" --launcher "$SIM"
	rid=$(basename "$(ls -d "$RESULTS"/*/)")
	EXECLAG_SYSROOT="$SHARED/sysroot" measure --probe 0 --launcher "$SIM" -- true
	assert_success
	the_measure
	assert_equal "$(field .remedy.kind)" projection
	assert_equal "$(field .remedy.placement)" exe-hardlink
	assert_equal "$(field .remedy.remedies_run)" "$rid"
	# 12 programs x the hard link's first launch / 1 check at once
	assert_equal "$(jq -r '(.remedy.checker_busy_s.median - 12 * .remedy.first_launch_ms.median / 1000) | fabs < 1e-6' "$M/measure.json")" true
	[[ "$stderr" == *"  Remedy (a projection, not measured): were the 12 programs launched again after a rebuild, placed as exe-hardlink (a hard link to a launched file, made long before: the placement make remedies run "*" says to use, first launch "*" ms), their checks would take "*" instead of B"* ]] ||
		fail "no remedy line: $stderr"
	[[ "$stderr" == *"  Programs that are new bytes every time (relinked): no placement helps; only the exemption does"* ]]
	# without a remedies run: said, and still what no placement helps (the
	# file's measure: mac_state measure-m1, measure_reusing --launcher "$SIM"
	# -- true, into results of its own)
	m1_measure
	[[ "$stderr" == *"  Remedy: no make remedies run on this machine to project from (make remedies measures each placement)"* ]]
	[[ "$stderr" == *"only the exemption does"* ]]
	assert_equal "$(field_of_only_measure .remedy.remedies_run)" null
}

@test "macOS: checks that took longer than the command are its bottleneck, the share capped at 100%" {
	# the file's measure: mac_state measure-m1, measure_reusing --launcher "$SIM" -- true
	m1_measure
	assert_success
	the_measure
	assert_equal "$(field .share.median)" 1
	assert_equal "$(field .share_capped)" true
	assert_equal "$(field .bottleneck)" true
	assert_equal "$(field .projection)" null
	[[ "$stderr" == *"  B/W  100% (capped): $BOTTLENECK"* ]]
	grep -qF "$BOTTLENECK" "$M/measure.txt"
}

@test "macOS: log show refusing is one line; W, L and the status still come" {
	mac_state log-refused
	measure_reusing --launcher "$SIM" -- sh -c 'exit 5'
	assert_equal "$status" 5
	the_measure
	assert_equal "$(field .fresh_launches)" null
	assert_equal "$(field .fresh_reason)" "log show refused: log: Must be admin to run 'show' command"
	[[ "$stderr" == *"  N  unknown: log show refused: log: Must be admin to run 'show' command"* ]]
	assert_equal "$(field .checker_busy_s)" null
	assert_equal "$(field .penalty_ms.median)" "$(probe_l median)"
}

@test "macOS: no check in the window is N 0, said plainly, B 0 and a share of 0" {
	mac_state log-empty
	measure_reusing --launcher "$SIM" -- true
	assert_success
	the_measure
	assert_equal "$(field .fresh_launches)" 0
	assert_equal "$(field .checker_busy_s.median)" 0
	assert_equal "$(field .share.median)" 0
	[[ "$stderr" == *"  N  0 checks in the command's window: nothing new was checked"* ]]
}

# ---- Linux: the exec listener ---------------------------------------------------------

@test "macOS: a long window with background checks: N from those named in DIR and TMPDIR to plus unnamed" {
	mac_state measure-long
	# (logcount's split of this window alone: tests/logcount.bats)
	# the measure: N a range, B and the share with it
	measure_reusing --launcher "$SIM" -- sleep 2
	assert_success
	the_measure
	assert_equal "$(field .fresh_range.low)" 232
	assert_equal "$(field .fresh_range.high)" 496
	assert_equal "$(field .fresh_launches)" 496
	assert_equal "$(field .fresh.others_checks)" 512
	assert_equal "$(field .fresh.checks_unnamed)" 264
	assert_equal "$(jq -r '(.checker_busy_range_s.low - 232 * .penalty_ms.median / 1000) | fabs < 1e-3' "$M/measure.json")" true
	assert_equal "$(jq -r '(.checker_busy_range_s.high - 496 * .penalty_ms.median / 1000) | fabs < 1e-3' "$M/measure.json")" true
	# 232 x 150 ms is past a 2 s command: a bottleneck at both ends
	assert_equal "$(field .bottleneck)" true
	[[ "$stderr" == *"  N  232 to 496 checks (GK performScan) in the command's window: 232 checks of 232 distinct programs in the command's folders, and 264 whose program it does not name"* ]]
	[[ "$stderr" == *"512 checks of programs outside the command's folders not counted"* ]]
}

@test "macOS: a range whose high end alone reaches W is capped there, never called the bottleneck" {
	mac_state measure-m1
	# 9 x 150 ms = 1.35 s below W, 12 x 150 ms = 1.8 s above it
	measure_reusing --launcher "$SIM" -- sleep 1.6
	assert_success
	the_measure
	assert_equal "$(field .share_capped)" true
	assert_equal "$(field .bottleneck)" false
	assert_equal "$(jq -r '.share_range.low < 1 and .share_range.high == 1' "$M/measure.json")" true
	[[ "$stderr" == *"to 100% (capped at N's high end) of the command's time"* ]]
	[[ "$stderr" != *"$BOTTLENECK"* ]]
}

# sized_files BYTES: the programs measure-m1's log names in the project
# folder, each BYTES long (sparse), but t7, which is gone
sized_files() {
	local f
	mkdir -p "$P/target/debug/deps" "$P/target/debug/build/app-5e6f708192a3b4c5"
	for f in deps/t1-0a1b2c3d4e5f6071 deps/t2-1b2c3d4e5f607182 deps/t3-2c3d4e5f60718293 deps/t4-3d4e5f60718293a4 \
		deps/t5-4e5f60718293a4b5 deps/t6-5f60718293a4b5c6 build/app-5e6f708192a3b4c5/build-script-build; do
		dd if=/dev/zero of="$P/target/debug/$f" bs=1 count=0 seek="$1" 2>/dev/null
	done
}

@test "L at the programs' size: their median over 4x the probe's program takes L again there, and B uses it" {
	# the file's measure of it (setup_file: mac_state measure-m1, sized_files
	# 8388608, measure --launcher 'sim:… per_mb=10' -- sleep 1), in its folders
	D="$SHARED/size" P="$SHARED/size/proj" TMPDIR="$SHARED/size/tmp" RESULTS="$SHARED/size/results"
	status=$(cat "$SHARED/size.status")
	stderr=$(cat "$SHARED/size.err")
	output=$(cat "$SHARED/size.out")
	assert_success
	the_measure
	local pb size_run
	pb=$(field .probe_program_bytes)
	[ "$pb" -gt 0 ] && [ "$pb" -lt 2097152 ] || fail "the probe's program: $pb bytes"
	assert_equal "$(field .program_sizes.source)" "unified log"
	assert_equal "$(field .program_sizes.known)" 7
	assert_equal "$(field .program_sizes.gone)" 1
	assert_equal "$(field .program_sizes.median_bytes)" 8388608
	assert_equal "$(field .program_sizes.largest_bytes)" 8388608
	# padded to the median: the second probe's programs are the command's size
	assert_equal "$(field .penalty_at_size.pad_bytes)" "$((8388608 - pb))"
	assert_equal "$(field .penalty_at_size.how)" ran
	assert_equal "$(field .penalty_used)" at_size
	size_run=$(find "$RESULTS" -maxdepth 1 -name '*-probe-size')
	assert_equal "$(field .penalty_at_size.run_id)" "$(basename "$size_run")"
	assert_equal "$(jq -r '.cases[0].configs[0].pad_bytes' "$size_run/run.json")" "$((8388608 - pb))"
	# the model's: 150 ms + 10 ms a MiB of padding, against 150 ms unpadded
	assert_equal "$(jq -r --argjson p "$((8388608 - pb))" '(.penalty_at_size.penalty_ms.median - 150 - 10 * $p / 1048576) | fabs < 2' "$M/measure.json")" true
	assert_equal "$(jq -r '(.penalty_ms.median - 150) | fabs < 2' "$M/measure.json")" true
	assert_equal "$(jq -r '(.checker_busy_s.median - 12 * .penalty_at_size.penalty_ms.median / 1000) | fabs < 1e-5' "$M/measure.json")" true
	assert_equal "$(jq -r '(.checker_busy_range_s.low - 9 * .penalty_at_size.penalty_ms.median / 1000) | fabs < 1e-5' "$M/measure.json")" true
	[[ "$stderr" == *"  sizes  7 new programs: median 8 MiB, 90% at most 8 MiB, largest 8 MiB; the probe's program"* ]]
	[[ "$stderr" == *"     sizes unknown: 1 program the log named no longer exists, and 3 checks name no program"* ]]
	[[ "$stderr" == *"  L at 8 MiB  "*" per check (probe $(basename "$size_run"): exe at T=1, padded by "* ]]
	[[ "$stderr" == *"     B uses L at 8 MiB: the new programs' median is "*"x the probe's program"* ]]
	# both probes are runs of their own, never the newest run for check or feedback
	grep -qx 'run.role=measure-probe' "$size_run/conditions.txt"
	nothing_left
}

@test "L at the programs' size: within 4x of the probe's program, L as probed and no second probe" {
	mac_state measure-m1
	# the probe's program: its size in the file's measure (the same exe)
	pb=$(jq -r .probe_program_bytes "$(find "$SHARED/results" -mindepth 2 -maxdepth 2 -name measure.json)")
	[ "$pb" -gt 0 ] || fail "no probe program size in the file's measure"
	sized_files "$((pb * 2))"
	# (L from the file's probe: the sizes are weighed against its program
	# alone, reused or run; a probe run and sizes past 4x: the test above)
	measure_reusing --launcher "$SIM" -- sleep 1
	assert_success
	the_measure
	assert_equal "$(field .program_sizes.median_bytes)" "$((pb * 2))"
	assert_equal "$(field .penalty_at_size)" null
	assert_equal "$(field .penalty_used)" probe
	assert_equal "$(find "$RESULTS" -maxdepth 1 -name '*-probe-size')" ""
	[[ "$stderr" == *"the probe's program "*" (within 4x: L as probed)"* ]]
	[[ "$stderr" != *"L at "* ]]
}

@test "sizes: none of the named programs left, or no N, says the sizes are unknown and why" {
	mac_state measure-m1
	measure --probe 0 -- true
	the_measure
	assert_equal "$(field .program_sizes)" null
	assert_equal "$(field .program_sizes_reason)" "none of the programs the log named exists any more"
	[[ "$stderr" == *"  sizes  unknown: none of the programs the log named exists any more"* ]]
}

@test "Linux, root: N counts each new program the command ran once, not old ones, not a script read by sh" {
	[ "$(uname -s)" = Linux ] || skip "the exec listener is Linux's"
	[ "$(id -u)" = 0 ] || skip "fanotify needs root"
	cp /bin/true "$P/old"
	sleep 0.05
	measure_reusing --launcher "$SIM" -- sh -c 'cp /bin/true n1; cp /bin/true n2; cp /bin/echo n3
		./n1; ./n1; ./n2; ./n3 x >/dev/null; ./old; ./n2 & wait
		printf "echo read\n" >s.sh; sh s.sh'
	assert_success
	assert_equal "$output" "read"
	the_measure
	assert_equal "$(field .fresh_launches)" 3
	assert_equal "$(field .fresh_source)" fanotify
	assert_equal "$(field .fresh.fresh_executions)" 5
	assert_equal "$(field '[.fresh.first_programs[].path | sub(".*/"; "")] | join(",")')" "n1,n2,n3"
	[ "$(field .fresh.old_executions)" -gt 0 ]
	assert_equal "$(field .fresh.overflow)" false
	assert_equal "$(jq -r '(.checker_busy_s.median - 3 * .penalty_ms.median / 1000) | fabs < 1e-5' "$M/measure.json")" true
	[[ "$stderr" == *"  N  3 new programs launched (5 executions of files new since the start)"* ]]
	# their sizes, read at each one's first launch: two copies of true, one of echo
	local t e
	t=$(wc -c </bin/true | tr -d ' ')
	e=$(wc -c </bin/echo | tr -d ' ')
	assert_equal "$(field .program_sizes.source)" fanotify
	assert_equal "$(field .program_sizes.known)" 3
	assert_equal "$(field .program_sizes.median_bytes)" "$t"
	assert_equal "$(field .program_sizes.largest_bytes)" "$((t > e ? t : e))"
	assert_equal "$(field .fresh_range)" null
}

@test "Linux: without the listener, one line says N is unknown and the rest goes on" {
	[ "$(uname -s)" = Linux ] || skip "the exec listener is Linux's"
	EXECLAG_FANOTIFY=off measure_reusing --launcher "$SIM" -- sh -c 'cp /bin/true n1; ./n1'
	assert_success
	the_measure
	assert_equal "$(field .fresh_launches)" null
	assert_equal "$(printf '%s\n' "$stderr" | grep -c '^  N  unknown: ')" 1
	[[ "$stderr" == *"  N  unknown: fanotify turned off (EXECLAG_FANOTIFY=off)"* ]]
	assert_equal "$(field .penalty_ms.median)" "$(probe_l median)"
}

@test "Linux, not root: the listener cannot watch, which one line says" {
	[ "$(uname -s)" = Linux ] || skip "the exec listener is Linux's"
	[ "$(id -u)" = 0 ] || skip "needs root to become another user (setpriv)"
	command -v setpriv >/dev/null || skip "no setpriv"
	# nobody must reach the test's folders: bats makes its own private
	local d=$D
	while [ "$d" != / ] && [ "$d" != "$(dirname "$BATS_RUN_TMPDIR")" ]; do
		chmod o+x "$d"
		d=$(dirname "$d")
	done
	chown -R 65534:65534 "$P" "$RESULTS" "$TMPDIR"
	setpriv --reuid=65534 --regid=65534 --clear-groups test -x "$ROOT/scripts/measure" -o -r "$ROOT/scripts/measure" ||
		skip "the kit is not readable by nobody here"
	setpriv --reuid=65534 --regid=65534 --clear-groups test -w "$P" || skip "the test folder is not nobody's to write"
	run --separate-stderr setpriv --reuid=65534 --regid=65534 --clear-groups \
		bash -c 'cd "$1" && exec sh "$ROOT/scripts/measure" --probe 0 -- sh -c "cp /bin/true n1; ./n1; echo ran"' _ "$P"
	assert_success
	assert_equal "$output" "ran"
	[[ "$stderr" == *"  N  unknown: no root: fanotify needs CAP_SYS_ADMIN"* ]]
}

# ---- signals ------------------------------------------------------------------------------

# start_measure ARGS...: the measure in the background in its own process
# group (as a terminal's job: SIGINT not ignored), its pid in $pid; waits
# for the command to have started (it touches $P/started)
start_measure() {
	set -m
	(cd "$P" && exec sh "$ROOT/scripts/measure" "$@" >"$D/out" 2>"$D/err") &
	pid=$!
	set +m
	local i=0
	while [ ! -e "$P/started" ] && [ $i -lt 200 ]; do
		sleep 0.05
		i=$((i + 1))
	done
	[ -e "$P/started" ] || fail "the command did not start: $(cat "$D/err")"
}

@test "Ctrl-C (INT to the job) ends the command; the measure says what it saw, and exits 130" {
	need_sigint
	start_measure --probe 0 -- sh -c 'touch started; sleep 30'
	kill -INT -- "-$pid"
	rc=0
	wait "$pid" || rc=$?
	assert_equal "$rc" 130
	grep -q '^     interrupted: SIGINT' "$D/err"
	grep -q 'ended by signal 2 (exit status 130)' "$D/err"
	the_measure
	assert_equal "$(field .exit.interrupted)" SIGINT
	nothing_left
}

@test "TERM to the measure is passed on; a command that ignores it is killed by a second" {
	start_measure --probe 0 -- sh -c 'touch started; sleep 30'
	kill -TERM "$pid"
	rc=0
	wait "$pid" || rc=$?
	assert_equal "$rc" 143
	grep -q 'interrupted: SIGTERM (passed on)' "$D/err"
	the_measure
	rm -rf "$M" "$P/started"
	start_measure --probe 0 -- sh -c 'trap "" TERM; touch started; while :; do sleep 0.1; done'
	kill -TERM "$pid"
	sleep 0.5
	kill -0 "$pid" # still running: the command ignores TERM
	kill -TERM "$pid"
	rc=0
	wait "$pid" || rc=$?
	assert_equal "$rc" 137
	grep -q 'interrupted: SIGTERM (killed)' "$D/err"
	the_measure
	nothing_left
}

@test "an interrupt during the probe ends the measure: nothing written, no probe folder left" {
	need_sigint
	# the probe's launch of a configuration waits here until it is ended, so
	# the interrupt lands in the probe: the simulated probe alone took less
	# than this test's look at its progress on a fast machine, and the
	# interrupt came after it (its run kept, the measure not written)
	mkdir "$D/bin"
	for f in "$ROOT"/micro/bin/*; do
		if [ -f "$f" ] && [ -x "$f" ]; then ln -s "$f" "$D/bin/${f##*/}"; fi
	done
	rm "$D/bin/launch"
	printf '#!/bin/sh\ncase " $* " in *" --manifest "*) : >"%s"; exec sleep 30 ;; esac\nexec "%s" "$@"\n' \
		"$D/in-probe" "$ROOT/micro/bin/launch" >"$D/bin/launch"
	chmod +x "$D/bin/launch"
	set -m
	(cd "$P" && EXECLAG_BIN="$D/bin" && export EXECLAG_BIN &&
		exec sh "$ROOT/scripts/measure" --launcher "$SIM" -- touch ran >"$D/out" 2>"$D/err") &
	pid=$!
	set +m
	i=0
	while [ ! -e "$D/in-probe" ] && [ $i -lt 400 ]; do
		sleep 0.05
		i=$((i + 1))
	done
	[ -e "$D/in-probe" ] || fail "the probe did not reach its launches: $(cat "$D/err")"
	kill -INT -- "-$pid"
	rc=0
	wait "$pid" || rc=$?
	assert_equal "$rc" 130
	[ ! -e "$P/ran" ]
	assert_equal "$(find "$RESULTS" -name measure.json)" ""
	assert_equal "$(find "$RESULTS" -name run.json)" ""
	nothing_left
}

# ---- the answer: the measure's own cause and step ---------------------------------------

@test "a measure ends with its cause and do lines, and no plain lines of its probe's own" {
	# the file's measure (setup_file): measure --launcher "$SIM" -- true
	shared_measure
	assert_success
	the_measure
	probe=$(find "$RESULTS" -maxdepth 1 -name '*-probe')
	# repro's plain lines (cost, queue, cause, do: make repro TAG=after,
	# make compare A=<the probe>) are not said inside a measure
	assert_equal "$(printf '%s\n' "$stderr" | grep -c -e '^cost' -e '^queue:')" 0
	[[ "$stderr" != *"make compare A=$(basename "$probe")"* ]]
	# the last lines are the measure's: those make doctor gives for its
	# probe's verdict, here the simulator's
	run -0 "$BIN/advise" --run "$probe"
	local want=$output n
	n=$(printf '%s\n' "$want" | wc -l | tr -d ' ')
	[ "$n" -ge 2 ]
	assert_equal "$(printf '%s\n' "$stderr" | tail -n "$n")" "$want"
	assert_equal "$(tail -n "$n" "$M/measure.txt")" "$want"
	# (the checker's state first: the simulator's record, well)
	[[ "$want" == "checker: well — SIMULATED "*$'\n'"cause: a simulated run"* ]]
	# the probe is marked as one: make check and make feedback pass it by
	grep -qx 'run.role=measure-probe' "$probe/conditions.txt"
}

@test "a Mac's measure ends as make doctor would: the app and its Developer Tools step; over ssh, ssh's" {
	mac_measure plain
	run -0 "$BIN/advise" --run "$probe"
	local want=$output n
	n=$(printf '%s\n' "$want" | wc -l | tr -d ' ')
	[[ "$want" == *"Terminal is not a Developer Tool (Developer Tools: denied)"* ]]
	[[ "$want" == *"do: open System Settings › Privacy & Security › Developer Tools"* ]]
	run -0 cat "$D/plain/measure.txt"
	assert_equal "$(tail -n "$n" "$D/plain/measure.txt")" "$want"
	# the figures come first: B from 9 to 12 checks of the probe's L
	grep -q '^  B  .* to .* = N x L / 1 (checks at once)$' "$D/plain/measure.txt"
	# started over ssh: the cause and the step are ssh's, as the doctor's
	mac_measure ssh ssh=yes started_via=ssh,Terminal
	[[ "$output" == *"cause: the kit ran over ssh, so macOS holds sshd-keygen-wrapper responsible"* ]]
	[[ "$output" == *"do: run the command in a terminal on the Mac itself whose app is a Developer Tool"* ]]
	# (make compare of the two: tests/mcompare.bats)
}

@test "make feedback and make check never take a measure's probe for the newest run" {
	local mine="$RESULTS/20260301T101500Z-f33dba"
	cp -R "$ROOT/tests/fixtures/brief/mac-penalty" "$mine"
	"$BIN/analyze" --run "$mine" --quiet
	measure_reusing --launcher "$SIM" -- true
	assert_success
	run -0 sh "$ROOT/scripts/findrun" --newest
	assert_output "$mine"
	# one exercise's checks: the run is found before EXERCISE counts, and
	# the first line names it either way (the whole check's seven pattern
	# files are tests/check.bats'; here they cost some 3 s of CPU for one line)
	run --separate-stderr make -s --no-print-directory -C "$ROOT" check RESULTS="$RESULTS" EXERCISE=1
	assert_success
	assert_equal "${lines[0]}" "execlag check: $mine (exercise 1, docs/workshop.md)"
	run --separate-stderr make -s --no-print-directory -C "$ROOT" feedback RESULTS="$RESULTS" USER=jappleseed
	assert_success
	ls "$mine"/feedback/feedback.txt
	assert_equal "$(find "$RESULTS" -path '*-probe/feedback')" ""
	# with the probe alone, none is taken; named, it still is
	rm -rf "$mine"
	run --separate-stderr make -s --no-print-directory -C "$ROOT" feedback RESULTS="$RESULTS"
	assert_equal "$status" 2
	[[ "$stderr" == *"a measure's probe is not taken for one"* ]]
	run --separate-stderr make -s --no-print-directory -C "$ROOT" check RESULTS="$RESULTS"
	assert_equal "$status" 2
	[[ "$stderr" == *"a measure's probe is not taken for one"* ]]
	# (one exercise's checks: the run it names is the first line either way)
	run --separate-stderr make -s --no-print-directory -C "$ROOT" check RESULTS="$RESULTS" RUN=probe EXERCISE=1
	[[ "${lines[0]}" == "execlag check: $RESULTS/"*"-probe"* ]]
}

# ---- feedback ---------------------------------------------------------------------------

@test "make feedback MEASURE= bundles the measure, command and folder redacted; a simulated one is refused" {
	# redacted: its command line and folder; a simulated one: a measure whose probe ran on the simulator
	mac_state measure-m1
	export HOME="$D/home/jappleseed"
	mkdir -p "$HOME/src/app"
	P="$HOME/src/app"
	# L from the simulator is not evidence: refused, nothing made
	measure_reusing --launcher "$SIM" -- true
	the_measure
	run --separate-stderr make -s --no-print-directory -C "$ROOT" feedback MEASURE="$M" RESULTS="$RESULTS"
	assert_equal "$status" 2
	[[ "$stderr" == *"is a measure whose probe was simulated"* ]]
	assert_equal "$(find "$RESULTS" -name feedback -type d)" ""
	# a measure.json that is no measure: refused in its reader's words
	mkdir -p "$D/notmeasure"
	printf '{"schema": "execlag-run"}\n' >"$D/notmeasure/measure.json"
	run make -s --no-print-directory -C "$ROOT" feedback MEASURE="$D/notmeasure" RESULTS="$RESULTS"
	assert_equal "$status" 2
	assert_line --index 0 "feedback: $D/notmeasure/measure.json is not an execlag measure"
	rm -rf "${RESULTS:?}"/*
	# a real run to file (the feedback tests' Mac fixture) and a measure
	# without a probe
	cp -R "$ROOT/tests/fixtures/feedback/mac-run" "$RESULTS/20260301T101500Z-f33dba"
	"$ROOT/micro/bin/analyze" --run "$RESULTS/20260301T101500Z-f33dba" --quiet
	measure --probe 0 -- sh -c 'echo jappleseed was here'
	assert_success
	M=$(dirname "$(find "$RESULTS" -mindepth 2 -maxdepth 2 -name measure.json)")
	run --separate-stderr make -s --no-print-directory -C "$ROOT" feedback MEASURE="$M" RESULTS="$RESULTS" USER=jappleseed
	assert_success
	run=$RESULTS/20260301T101500Z-f33dba
	tgz=$(find "$run/feedback" -name '*.tar.gz')
	mkdir -p "$D/unpacked"
	tar -xzf "$tgz" -C "$D/unpacked"
	ls "$D"/unpacked/*/measure/measure.json "$D"/unpacked/*/measure/measure.txt
	run grep -r -l -F -e jappleseed "$D/unpacked" "$run/feedback/feedback.txt"
	assert_failure
	grep -q '<user> was here' "$D"/unpacked/*/measure/measure.json
	grep -q 'ran in <home>/src/app' "$run/feedback/feedback.txt"
	grep -q 'on a workload of my own (make measure' "$run/feedback/feedback.txt"
}

@test "measure.json follows docs/measure.schema.json, whether N and L are known or not" {
	local reason
	reason=$(schema_skip_reason)
	[ -z "$reason" ] || skip "$reason"
	mac_state log-refused
	measure --probe 0 --launcher 'sim:latency=0 seed=3' -- true
	assert_success
	# and one of measure-m1's 12 checks on the file's probe: the file's
	# (setup_file: mac_state measure-m1, measure_reusing --launcher "$SIM" -- true)
	assert_equal "$(cat "$SHARED/m1.status")" 0
	cp -R "$(dirname "$(find "$SHARED/m1/results" -mindepth 2 -maxdepth 2 -name measure.json)")" "$RESULTS/"
	# and one with the programs' sizes, N a range and L again at their size:
	# the file's (setup_file; the test of L at the programs' size reads it)
	assert_equal "$(cat "$SHARED/size.status")" 0
	cp -R "$(dirname "$(find "$SHARED/size/results" -mindepth 2 -maxdepth 2 -name measure.json)")" "$RESULTS/"
	# all three in one validator's run (a python start is a second here
	# under load); it names each invalid file
	case $(schema_validator) in
	python) run "$SCHEMA_PY" "$ROOT/tests/test_helper/validate-run.py" "$ROOT/docs/measure.schema.json" "$RESULTS"/*/measure.json ;;
	*) run check-jsonschema --schemafile "$ROOT/docs/measure.schema.json" "$RESULTS"/*/measure.json ;;
	esac
	[ "$status" -eq 0 ] || fail "$output"
	assert_equal "$(ls "$RESULTS"/*/measure.json | wc -l | tr -d ' ')" 3
	assert_equal "$(jq -r 'select(.penalty_at_size != null) | .penalty_used' "$RESULTS"/*/measure.json)" at_size
}

@test "a run started beside a live measure, into the same results, leaves the measure's folder alone" {
	local part
	# the command waits until the other run is over
	bash -c 'cd "$1" && exec sh "$ROOT/scripts/measure" --probe 0 -- sh -c "while [ ! -e \"\$0\" ]; do sleep 0.1; done" "$2"' \
		_ "$P" "$D/go" >"$D/m.out" 2>"$D/m.err" &
	local mpid=$! i=0
	while [ -z "$(find "$RESULTS" -maxdepth 1 -name '.*.partial' 2>/dev/null)" ] && [ $i -lt 100 ]; do
		sleep 0.1
		i=$((i + 1))
	done
	part=$(find "$RESULTS" -maxdepth 1 -name '.*.partial')
	[ -n "$part" ] || fail "no measure folder: $(cat "$D/m.err")"
	run --separate-stderr sh "$ROOT/scripts/repro" --cases exe --threads 1 --count 6 --launcher 'sim:latency=0 seed=1'
	assert_success
	[[ "$stderr" != *"removed the leftovers"* ]] || fail "$stderr"
	[ -d "$part" ] || fail "the live measure's folder went"
	: >"$D/go"
	wait "$mpid" || fail "the measure failed: $(cat "$D/m.err")"
	the_measure
}

# The checker's health before the command (issue 43): the simulated
# storm's record kept, its state and figures in conditions.txt and
# measure.json, and the answer ends with the checker's lines, no Developer
# Tools step.
@test "a measure carries the checker's state and figures, and ends with the relief of a sick one" {
	measure --launcher "$SIM storm=300" -- true
	assert_success
	the_measure
	[ -f "$M/health.tsv" ] || fail "no health.tsv in $M"
	grep -qx 'checker.state=storm' "$M/conditions.txt"
	assert_equal "$(field '.conditions["checker.state"] + " " + .conditions["checker.rate"]')" "storm 300.0"
	run -0 cat "$M/measure.txt"
	assert_line --regexp '^checker: storm — SIMULATED .* named most: /Applications/Simulated Driver\.app/Contents/MacOS/Simulated Driver \(18000 lines\)$'
	assert_line --regexp '^cause: the checker is sick, not slow'
	assert_line --regexp '^relief: 1\. quit the program driving the checker'
	refute_line --partial "Developer Tools ›"
}
