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
load test_helper/quickrun

# (per_mb=10: the file's one probe is also the one of L at the programs'
# size, whose model adds 10 ms a MiB of padding; the probe's own program,
# unpadded and small, costs some 150 ms as without it)
SIM='sim:latency=150 workers=1 key=inode seed=7 per_mb=10'
# (the measures of tests whose subject is neither the probe nor the
# checker's health run with --launcher "$SIM" too: the health record is
# then the simulator's, one process, not scripts/probe/health's seven)
BOTTLENECK="the checks alone took longer than the command: they were its bottleneck"

# One probe for the file, made by a measure as any (scripts/measure on the
# simulator, SIM) on an empty EXECLAG_SYSROOT: the tests whose subject is
# not the probe but the measure around it copy it (shared_probe) and reuse
# it (--probe 0: the latest comparable run; the same empty sysroot keeps
# the fanotify listeners and agents of other processes on this machine out
# of the comparison).  A probe is a run of the kit, some seconds each; the
# test of the probe itself (its run, its lines) and the one of L at the
# programs' size read that measure (it took L again at their size); the
# probe's interrupt makes its own.
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
	# the simulated runs' templates compiled once for the whole suite, as
	# _common_setup shares them with the tests (mkfresh --simulated)
	if [ -z "${EXECLAG_TEMPLATES:-}" ] && [ -n "${BATS_RUN_TMPDIR:-}" ]; then
		EXECLAG_TEMPLATES="$BATS_RUN_TMPDIR/templates"
		export EXECLAG_TEMPLATES
	fi
	SHARED="$BATS_FILE_TMPDIR/shared"
	mkdir -p "$SHARED/sysroot"
	# the file's probe, and L at the programs' size: one measure of a
	# command whose programs (in measure-m1's log) are 8 MiB, so a probe
	# and a second one at their size, for the tests of the probe, of L at
	# the programs' size and the schema's (mac_state and sized_files below,
	# in the folders a test would have)
	(
		shared_folders size
		# (the services' CPU not sampled: the measure-m1 test's subject,
		# not its readers', and some 20 processes a measure)
		EXECLAG_WATCH_SERVICES=0
		sized_files 8388608
		cd "$P" && EXECLAG_SYSROOT="$SHARED/sysroot" exec sh "$ROOT/scripts/measure" --launcher "$SIM" -- sleep 1
	) >"$SHARED/size.out" 2>"$SHARED/size.err" 3>&- && echo 0 >"$SHARED/size.status" || echo "$?" >"$SHARED/size.status"
	# a measure of measure-m1's 12 checks on the file's probe, as
	# measure_reusing makes it (mac_state measure-m1, then measure --probe 0
	# --launcher "$SIM" -- true, EXECLAG_SYSROOT the probe's), in the folders
	# a test would have: the tests that only read such a measure (the
	# bottleneck, the schema's, the remedy without a remedies run) read it
	(
		shared_folders m1
		cp -R "$(find "$SHARED/size/results" -mindepth 1 -maxdepth 1 -name '*-probe')" "$RESULTS/"
		cd "$P" && EXECLAG_SYSROOT="$SHARED/sysroot" exec sh "$ROOT/scripts/measure" --probe 0 --launcher "$SIM" -- true
	) >"$SHARED/m1.out" 2>"$SHARED/m1.err" 3>&- && echo 0 >"$SHARED/m1.status" || echo "$?" >"$SHARED/m1.status"
	export SHARED
}

# The helpers a test calls (m1_measure, shared_probe, measure_reusing,
# measure, the_measure, fields, expect, nothing_left, no_files, mac_state,
# slurp, shared_measure) run without bats' trace of each command: NAME is
# kit_untraced _u_NAME (some 0.3 ms a command, ten to a hundred a call; a
# failure is reported at the test's line that called it).  One calls
# another's _u_ form: a kit_untraced inside one sets the trace again.

# m1_measure: the file's measure of measure-m1's 12 checks on the file's
# probe (setup_file) as this test's, as measure_reusing would have made it:
# status, output, stderr, and D, P, TMPDIR and RESULTS its folders
_u_m1_measure() {
	D="$SHARED/m1" P="$SHARED/m1/proj" TMPDIR="$SHARED/m1/tmp" RESULTS="$SHARED/m1/results"
	_u_slurp status "$SHARED/m1.status"
	_u_slurp stderr "$SHARED/m1.err"
	_u_slurp output "$SHARED/m1.out"
	[[ "$stderr" == *"PROBE=0: L from the latest comparable run, "*"-probe"* ]] || fail "the file's probe was not taken: $stderr"
}
m1_measure() { kit_untraced _u_m1_measure "$@"; }

# shared_probe: the file's probe (setup_file) in this test's results; the
# measures that reuse it run with EXECLAG_SYSROOT="$SHARED/sysroot"
_u_shared_probe() {
	local pr f st
	_u_slurp st "$SHARED/size.status"
	[ "$st" = 0 ] || fail "the file's probe failed: $(cat "$SHARED/size.err")"
	for f in "$SHARED/size/results"/*-probe "$SHARED/size/results"/.*-probe; do
		[ ! -e "$f" ] || pr=$f
	done
	[ -f "$pr/run.json" ] || fail "the file's probe made no run: $(cat "$SHARED/size.err")"
	cp -R "$pr" "$RESULTS/"
}
shared_probe() { kit_untraced _u_shared_probe "$@"; }

# measure_reusing ARGS...: measure --probe 0 ARGS on the file's probe, which
# it must take (its L, named on stderr)
_u_measure_reusing() {
	_u_shared_probe
	EXECLAG_SYSROOT="$SHARED/sysroot" _u_measure --probe 0 "$@"
	[[ "$stderr" == *"PROBE=0: L from the latest comparable run, "*"-probe"* ]] || fail "the file's probe was not taken: $stderr"
}
measure_reusing() { kit_untraced _u_measure_reusing "$@"; }

setup() {
	_common_setup
	# _run_folders_setup's folders and the project folder, one mkdir (a
	# process a test)
	D="$BATS_TEST_TMPDIR"
	P="$D/proj"
	mkdir -p "$D/tmp" "$D/results" "$P"
	export TMPDIR="$D/tmp" RESULTS="$D/results"
	for p in execwatch measure launch; do
		[ -x "$BIN/$p" ] || fail "$BIN/$p is missing: run 'make build'"
	done
}

# measure ARGS...: scripts/measure in the project folder, stdout and stderr
# apart ($output is the command's, $stderr the measure's; run_sep sets
# them as run --separate-stderr would).  (The cd in a subshell of its own,
# which the sh replaces.)
_u_measure() {
	run_sep measure_in_p "$@"
}
measure() { kit_untraced _u_measure "$@"; }
measure_in_p() {
	(cd "$P" && exec sh "$ROOT/scripts/measure" "$@")
}

# the one measure made (its folder; a hidden one counts too), no process
_u_the_measure() {
	local f m="" n=0
	for f in "$RESULTS"/*/measure.json "$RESULTS"/.[!.]*/measure.json "$RESULTS"/..?*/measure.json; do
		[ -e "$f" ] || continue
		m=$f n=$((n + 1))
	done
	[ "$n" = 1 ] || fail "not one measure in $RESULTS: $n"
	M=${m%/measure.json}
}
the_measure() { kit_untraced _u_the_measure "$@"; }
# fields [--probe] JQ...: each JQ of the measure's measure.json ($M) as
# `jq -r JQ` prints it (a string raw, anything else as JSON, several
# values a line each), into the array F, in order: one jq for them all (a
# jq start costs some 50 ms of CPU here, and a test reads up to 30).
# --probe: probe_l is the exe case's penalty_ms of the newest probe run in
# the results (as analyze wrote it: what L must be).
_u_fields() {
	local prog="" f out probe=()
	if [ "$1" = --probe ]; then
		shift
		for f in "$RESULTS"/*-probe/run.json; do
			if [ -e "$f" ]; then probe=(--slurpfile probe "$f"); fi
		done
		[ ${#probe[@]} = 3 ] || fail "no probe run in $RESULTS"
		prog='def probe_l: $probe[0].cases[] | select(.name == "exe") | .penalty_ms; '
	fi
	local sep=""
	prog="$prog["
	for f in "$@"; do
		prog="$prog$sep([$f] | map(if type == \"string\" then . else tojson end) | join(\"\\n\"))"
		sep=", "
	done
	out=$(jq -r "${probe[@]}" "$prog] | @sh" "$M/measure.json") || fail "jq $prog: $out"
	eval "F=($out)"
}
fields() { kit_untraced _u_fields "$@"; }
# expect [--probe] JQ WANT [JQ WANT...]: each JQ of the measure's
# measure.json prints WANT (fields: one jq)
_u_expect() {
	local probe="" i=0 jqs=() wants=()
	if [ "$1" = --probe ]; then probe=--probe; shift; fi
	while [ $# -gt 0 ]; do
		jqs[i]=$1 wants[i]=$2
		i=$((i + 1))
		shift 2
	done
	_u_fields $probe "${jqs[@]}"
	for ((i = 0; i < ${#jqs[@]}; i++)); do
		assert_equal "${jqs[i]} = ${F[i]}" "${jqs[i]} = ${wants[i]}"
	done
}
expect() { kit_untraced _u_expect "$@"; }

# nothing_left: no half-written measure, no probe work folder, no
# temporary folder or owner file, no run being made (all but the first
# without a process: globs)
_u_nothing_left() {
	local f
	assert_equal "$(find "$RESULTS" -name '.*.partial')" ""
	# (the measure's temporary folder is staging's .tmp, an older kit's
	# was TMPDIR's execlag-measure.*: neither left, nor in what it published)
	for f in "$P"/.execlag-probe.* "$TMPDIR"/execlag-measure.* "$RESULTS"/*/.tmp "$RESULTS"/*/.execlag-owner; do
		[ ! -e "$f" ] || fail "left: $f"
	done
}
nothing_left() { kit_untraced _u_nothing_left "$@"; }

# no_files DIR...: each DIR holds nothing (what find DIR -mindepth 1 lists)
_u_no_files() {
	local d f
	for d in "$@"; do
		for f in "$d"/* "$d"/.[!.]* "$d"/..?*; do
			[ ! -e "$f" ] && [ ! -L "$f" ] || fail "left in $d: $f"
		done
	done
}
no_files() { kit_untraced _u_no_files "$@"; }

# mac_state NAME: a copy of the fake state NAME whose project folder
# (/Users/jappleseed/src/app) and TMPDIR
# (/private/var/folders/zz/zyxvpxvq6csfxvn_n0000000000000/T) are this
# test's, and a PATH folder holding only the fake log and ps: the rest of
# the machine stays Linux, and the measure reads the log (EXECLAG_LOG) and
# the services (EXECLAG_WATCH_SERVICES)
_u_mac_state() {
	local pp
	# (P's physical path: cd -P and back, no subshell)
	cd -P -- "$P"
	pp=$PWD
	cd -- "$OLDPWD"
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
mac_state() { kit_untraced _u_mac_state "$@"; }

# ---- bad input: one line, exit 2, nothing run -----------------------------------

@test "--help: how and where the command runs; bad input refused in one line, exit 2, before anything runs" {
	# --help says how the command is run, where, and DIR's default; bad input (make measure without CMD too) is refused with one line and exit 2, before anything runs
	# (one test: a bats test costs some 0.2 s of CPU here before it does anything)
	run_both -0 sh "$ROOT/scripts/measure" --help
	assert_output --partial "usage: scripts/measure"
	assert_output --partial "never through a shell"
	assert_output --partial "default: this folder"
	assert_output --partial "the folder make runs in"
	local args
	# (the rows run by kit_untraced: without bats' trace of each command,
	# some 0.3 ms each; a failure is reported at its call below)
	bad_inputs() {
		while IFS='|' read -r args want; do
			eval "set -- $args"
			_u_measure "$@"
			assert_equal "$args: $status" "$args: 2"
			[[ "$stderr" != *$'\n'* ]] || fail "$args: more than one line: $stderr"
			[[ "$stderr" == *"$want"* ]] || fail "$args: $stderr"
			assert_equal "$output" ""
			_u_no_files "$RESULTS" "$TMPDIR" "$P"
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
	kit_untraced bad_inputs
	# make measure without CMD says what it needs
	run_sep make -s --no-print-directory -C "$ROOT" measure RESULTS="$RESULTS"
	assert_equal "$status" 2
	[[ "$stderr" == *"make measure needs CMD='your command'"* ]]
	no_files "$RESULTS"
}

# ---- the command: untouched output, kept status, arguments as data --------------

@test "the command's output passes through byte for byte, its status is kept, the measure speaks on stderr" {
	printf 'line one\n\ttab\nno newline at the end' >"$D/expected"
	printf 'and on stderr\n' >"$D/expected.err"
	(cd "$P" && sh "$ROOT/scripts/measure" --probe 0 --launcher "$SIM" -- sh -c 'cat "$1"; cat "$2" >&2; exit 7' _ "$D/expected" "$D/expected.err" \
		>"$D/out" 2>"$D/err") && rc=0 || rc=$?
	assert_equal "$rc" 7
	cmp "$D/expected" "$D/out"
	# its lines, each whole (read without a process)
	local err
	IFS= read -r -d '' err <"$D/err" || true
	err=$'\n'$err$'\n'
	[[ "$err" == *$'\nand on stderr\n'* ]] || fail "no 'and on stderr' line: $err"
	[[ "$err" =~ $'\n''  W  '[0-9.]*' s, exit status 7'$'\n' ]] || fail "no W line: $err"
	the_measure
	expect .exit.status 7 .probe.how none
	nothing_left
}

@test "arguments are data: quotes, \$, globs, spaces and a leading - reach the command as given" {
	touch "$P/a-file"
	measure --probe 0 --launcher "$SIM" -- printf '%s|' 'two words' '$HOME' '*' '"q"' "it's" '-n' '$(touch nope)' ';'
	assert_success
	assert_equal "$output" "two words|\$HOME|*|\"q\"|it's|-n|\$(touch nope)|;|"
	[ ! -e "$P/nope" ]
	the_measure
	expect '.command | length' 10 '.command[3]' '$HOME'
}

@test "make measure runs CMD with sh -c as the user's own command, in DIR, make expanding nothing" {
	local d="$D/Bob's \$(x) dir"
	mkdir -p "$d"
	run_sep make -s --no-print-directory -C "$ROOT" measure PROBE=0 RESULTS="$RESULTS" \
		DIR="$d" CMD='pwd; printf "%s\n" "$(printf made-by-sh)" "$(shell echo make)"; exit 3'
	assert_equal "${lines[0]}" "$(cd "$d" && pwd)"
	assert_equal "${lines[1]}" "made-by-sh"
	# make would have put "make" here; sh runs a command named shell instead
	assert_equal "${lines[2]}" ""
	[[ "$stderr" == *"exit status 3"* ]]
	the_measure
	expect '.command[0:2] | join(" ")' "sh -c" .dir "$(cd "$d" && pwd)"
}

@test "a command not found: 127, said not run; killed by a signal: 128 + its number, the measure written" {
	# a command that is not found: exit 127, and the measure says it did not run; killed by a signal: 128 + its number, and the measure is written
	# (one test: a bats test costs some 0.2 s of CPU here before it does anything)
	measure --probe 0 --launcher "$SIM" -- no-such-command-here
	assert_equal "$status" 127
	[[ "$stderr" == *"it did not run (command not found), exit status 127"* ]]
	the_measure
	expect .exit.not_run "command not found"
	rm -rf "$M"
	measure --probe 0 --launcher "$SIM" -- sh -c 'kill -KILL $$'
	assert_equal "$status" 137
	[[ "$stderr" == *"ended by signal 9 (exit status 137)"* ]]
	the_measure
	expect .exit.signal 9
}

# ---- the probe: L on the simulator ------------------------------------------------

# slurp VAR FILE: VAR is FILE's text as $(cat FILE) gives it (the trailing
# newlines dropped), without a process
_u_slurp() {
	IFS= read -r -d '' "$1" <"$2" || true
	while [ "${!1%$'\n'}" != "${!1}" ]; do eval "$1=\${$1%\$'\\n'}"; done
}
slurp() { kit_untraced _u_slurp "$@"; }

# shared_measure: the file's measure (setup_file) as this test's: its
# status, output and stderr, and D, P, TMPDIR and RESULTS its folders (for
# the tests of a measure that runs its probe: measure --launcher "$SIM" --
# sleep 1, in measure-m1's state, the log's programs 8 MiB)
_u_shared_measure() {
	D="$SHARED/size" P="$SHARED/size/proj" TMPDIR="$SHARED/size/tmp" RESULTS="$SHARED/size/results"
	_u_slurp status "$SHARED/size.status"
	_u_slurp stderr "$SHARED/size.err"
	_u_slurp output "$SHARED/size.out"
}
shared_measure() { kit_untraced _u_shared_measure "$@"; }

@test "the probe: exe at T=1 and 2 in DIR, L its exe penalty, and again at the programs' size; cause, do" {
	# the probe: exe at T=1 and T=2 in a work folder in DIR, a run tagged probe; L is its exe penalty; the measure ends with its cause and do lines, and no plain lines of its probe's own
	# the file's measure (setup_file): measure --launcher "$SIM" -- sleep 1
	# (one test for the probe and the answer: both read it, and a bats test
	# costs some 0.2 s of CPU here before it does anything)
	shared_measure
	assert_success
	[[ "$stderr" == *"execlag: probe: the exe case at T=1 and T=2 in $(cd "$P" && pwd)/.execlag-probe."* ]]
	local run f
	for f in "$RESULTS"/*-probe; do run=$f; done
	[ -f "$run/run.json" ]
	the_measure
	expect --probe '$probe[0].cases | map(.name) | join(",")' exe \
		'$probe[0].cases[0].configs | map(.threads) | join(",")' "1,2" \
		.probe.how ran .probe.run_id "${run##*/}" .probe.simulated true \
		'.penalty_ms.median == $probe[0].cases[0].penalty_ms.median' true \
		'.penalty_ms.ci_low == $probe[0].cases[0].penalty_ms.ci_low' true \
		.checks_queue serialised
	[[ "$stderr" == *"the probe was SIMULATED"* ]]
	nothing_left
	# the answer: repro's plain lines (cost, queue, cause, do: make repro
	# TAG=after, make compare A=<the probe>) are not said inside a measure
	[[ $'\n'"$stderr" != *$'\ncost'* ]] || fail "a cost line: $stderr"
	[[ $'\n'"$stderr" != *$'\nqueue:'* ]] || fail "a queue: line: $stderr"
	[[ "$stderr" != *"make compare A=${run##*/}"* ]]
	# the last lines are the measure's: those make doctor gives for its
	# probe's verdict, here the simulator's
	run_both -0 "$BIN/advise" --run "$run"
	local want=$output n nl
	nl=${want//[!$'\n']/}
	n=$((${#nl} + 1))
	[ "$n" -ge 2 ]
	# (stderr's last n lines are want: it ends with them, whole)
	[[ "$stderr" == "$want" || "$stderr" == *$'\n'"$want" ]] || fail "stderr does not end with: $want"
	assert_equal "$(tail -n "$n" "$M/measure.txt")" "$want"
	# (the checker's state first: the simulator's record, well)
	[[ "$want" == "checker: well — SIMULATED "*$'\n'"cause: a simulated run"* ]]
	# the probe is marked as one: make check and make feedback pass it by
	grep -qx 'run.role=measure-probe' "$run/conditions.txt"
	# (was: "L at the programs' size: their median over 4x the probe's program takes L again there, and B uses it")
	# the file's measure of it (setup_file: mac_state measure-m1, sized_files
	# 8388608, measure --launcher "$SIM" -- sleep 1, SIM per_mb=10), in its folders
	D="$SHARED/size" P="$SHARED/size/proj" TMPDIR="$SHARED/size/tmp" RESULTS="$SHARED/size/results"
	slurp status "$SHARED/size.status"
	slurp stderr "$SHARED/size.err"
	slurp output "$SHARED/size.out"
	assert_success
	the_measure
	local pb size_run f
	fields .probe_program_bytes
	pb=${F[0]}
	[ "$pb" -gt 0 ] && [ "$pb" -lt 2097152 ] || fail "the probe's program: $pb bytes"
	for f in "$RESULTS"/*-probe-size; do size_run=$f; done
	[ -f "$size_run/run.json" ] || fail "no second probe in $RESULTS"
	# padded to the median: the second probe's programs are the command's
	# size; the model's L: 150 ms + 10 ms a MiB of padding, against 150 ms
	# unpadded
	expect .program_sizes.source "unified log" .program_sizes.known 7 .program_sizes.gone 1 \
		.program_sizes.median_bytes 8388608 .program_sizes.largest_bytes 8388608 \
		.penalty_at_size.pad_bytes "$((8388608 - pb))" .penalty_at_size.how ran .penalty_used at_size \
		.penalty_at_size.run_id "${size_run##*/}" \
		"(.penalty_at_size.penalty_ms.median - 150 - 10 * $((8388608 - pb)) / 1048576) | fabs < 2" true \
		'(.penalty_ms.median - 150) | fabs < 2' true \
		'(.checker_busy_s.median - 12 * .penalty_at_size.penalty_ms.median / 1000) | fabs < 1e-5' true \
		'(.checker_busy_range_s.low - 9 * .penalty_at_size.penalty_ms.median / 1000) | fabs < 1e-5' true
	assert_equal "$(jq -r '.cases[0].configs[0].pad_bytes' "$size_run/run.json")" "$((8388608 - pb))"
	[[ "$stderr" == *"  sizes  7 new programs: median 8 MiB, 90% at most 8 MiB, largest 8 MiB; the probe's program"* ]]
	[[ "$stderr" == *"     sizes unknown: 1 program the log named no longer exists, and 3 checks name no program"* ]]
	[[ "$stderr" == *"  L at 8 MiB  "*" per check (probe ${size_run##*/}: exe at T=1, padded by "* ]]
	[[ "$stderr" == *"     B uses L at 8 MiB: the new programs' median is "*"x the probe's program"* ]]
	# both probes are runs of their own, never the newest run for check or feedback
	grep -qx 'run.role=measure-probe' "$size_run/conditions.txt"
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
	local f probe
	for f in "$RESULTS"/*-probe; do probe=${f##*/}; done
	# another seed is another launcher: not comparable
	measure --probe 0 --launcher "${SIM/seed=7/seed=8}" -- true
	[[ "$stderr" == *"no comparable run"* ]]
	the_measure
	rm -rf "$M"
	measure --probe 0 --launcher "$SIM" -- true
	assert_success
	[[ "$stderr" == *"PROBE=0: L from the latest comparable run, $probe"* ]]
	the_measure
	expect --probe .probe.how reused .probe.run_id "$probe" '.penalty_ms.median == probe_l.median' true
	[[ "$stderr" == *"reused: PROBE=0"* ]]
}

# ---- macOS: the unified log and ps, faked byte for byte ---------------------------

@test "macOS: measure-m1's 12 checks: N 9 to 12, B = N x L a range, its share of W, capped or a bottleneck" {
	# (was: "macOS: 12 checks, 3 unnamed: N from 9 to 12, B = N x L a range, its share of W, the services' CPU")
	# the file's measure of measure-m1's 12 checks on the file's probe
	# (setup_file: mac_state measure-m1, measure_reusing --launcher "$SIM"
	# -- true): N, B and the services' CPU from its log and ps
	m1_measure
	assert_success
	the_measure
	# B = N x L / 1: from 9 x L to 12 x L, its interval from 9 x L's low
	# end to 12 x L's high end; ps before and after: XprotectService 3.03 s
	# and a new instance 0.75 s; L the probe's
	expect --probe .fresh_launches 12 .fresh_range.low 9 .fresh_range.high 12 .fresh.programs_named 8 \
		.fresh_source "unified log" .fresh.programs 11 .fresh.performscan 14 .fresh.others_checks 2 \
		.fresh.checks_unnamed 3 .fresh.evaluate_scan_result 18 \
		'.fresh.others_programs[0]' "/Applications/Some App.app/Contents/MacOS/Some App" \
		.fresh.scans_logged_s 2.1 .checks_at_once 1 .checker_busy_bound estimate \
		'(.checker_busy_s.median - 12 * .penalty_ms.median / 1000) | fabs < 1e-5' true \
		'(.checker_busy_range_s.high - 12 * .penalty_ms.median / 1000) | fabs < 1e-5' true \
		'(.checker_busy_range_s.low - 9 * .penalty_ms.median / 1000) | fabs < 1e-5' true \
		'(.checker_busy_s.ci_low - 9 * .penalty_ms.ci_low / 1000) | fabs < 1e-5' true \
		'(.checker_busy_s.ci_high - 12 * .penalty_ms.ci_high / 1000) | fabs < 1e-5' true \
		'.services[] | select(.name == "XprotectService") | .cpu_s' 3.78 \
		'.services[] | select(.name == "syspolicyd") | .cpu_s' 0.31 \
		'.penalty_ms.median == probe_l.median' true
	local count
	slurp count "$D/counter/ps.count"
	assert_equal "$count" 2
	[[ "$stderr" == *"  N  9 to 12 checks (GK performScan) in the command's window: 9 checks of 8 distinct programs in the command's folders, and 3 whose program it does not name"* ]]
	fields .checker_busy_range_s.low .checker_busy_s.median .checker_busy_s.ci_low .checker_busy_s.ci_high
	printf -v want '  B  %.2f s to %.2f s [%.2f, %.2f] = N x L / 1 (checks at once)' "${F[@]}"
	[[ "$stderr" == *"$want"* ]] || fail "no '$want' in $stderr"
	[[ "$stderr" == *"Services' CPU during the command: syspolicyd 0.31 s, XprotectService 3.78 s"* ]]
	# the log was read for the command's window, with the documented predicate
	grep -q '^predicate	process == "syspolicyd" AND subsystem == "com.apple.syspolicy.exec"$' "$M/raw/logcount.tsv"
	# the share is B / W, W the command's 2 s exactly (above B's high end,
	# 12 x L): micro/measure alone (mac_measure: its record of the
	# command, no clock; L the mac-penalty probe's 150.1 ms), in this
	# test's own folders
	D=$BATS_TEST_TMPDIR RESULTS=$BATS_TEST_TMPDIR/results
	MM_WALL_NS=2000000000 mac_measure w2
	M="$D/w2"
	expect .wall_s 2 .fresh_range.low 9 .fresh_range.high 12 \
		'(.share_range.low - .checker_busy_range_s.low / .wall_s) | fabs < 1e-5' true \
		'(.share.median - .checker_busy_s.median / .wall_s) | fabs < 1e-5' true \
		.share_capped false \
		'(.projection.without_checks_s.median - (.wall_s - .checker_busy_s.median)) | fabs < 1e-4' true
	# (its words, which scripts/measure shows last on stderr)
	[[ "$output" != *"$BOTTLENECK"* ]]
	# (was: "macOS: checks that took longer than the command are its bottleneck, the share capped at 100%")
	# the file's measure (mac_state measure-m1, measure_reusing --launcher "$SIM" -- true)
	m1_measure
	assert_success
	the_measure
	expect .share.median 1 .share_capped true .bottleneck true .projection null
	[[ "$stderr" == *"  B/W  100% (capped): $BOTTLENECK"* ]]
	grep -qF "$BOTTLENECK" "$M/measure.txt"
	# (was: "sizes: none of the named programs left, or no N, says the sizes are unknown and why")
	# the file's measure: mac_state measure-m1 (none of its log's programs
	# is in its folders), measure_reusing --launcher "$SIM" -- true
	m1_measure
	the_measure
	expect .program_sizes null .program_sizes_reason "none of the programs the log named exists any more"
	[[ "$stderr" == *"  sizes  unknown: none of the programs the log named exists any more"* ]]
	# (was: "macOS: a range whose high end alone reaches W is capped there, never called the bottleneck")
	# (in this test's own folders again)
	D=$BATS_TEST_TMPDIR RESULTS=$BATS_TEST_TMPDIR/results
	# W exactly 1.5 s (the command's record, no clock: micro/measure alone,
	# mac_measure), 9 x L = 1.35 s below it, 12 x L = 1.80 s above it (L
	# the mac-penalty probe's 150.1 ms)
	MM_WALL_NS=1500000000 mac_measure capped
	M="$D/capped"
	expect .wall_s 1.5 .fresh_range.low 9 .fresh_range.high 12 \
		'.checker_busy_range_s.low < .wall_s and .checker_busy_range_s.high > .wall_s' true \
		.share_capped true .bottleneck false '.share_range.low < 1 and .share_range.high == 1' true
	# (its words, which scripts/measure shows last on stderr)
	[[ "$output" == *"to 100% (capped at N's high end) of the command's time"* ]]
	[[ "$output" != *"$BOTTLENECK"* ]]
}

@test "the remedy: B again as the newest make remedies run's placement would place them, a projection" {
	# a make remedies run here first, in the measure's conditions (its
	# sysroot and launcher), then a measure of 12 checks that takes it
	# (PROBE=0 takes the remedies run's exe case for L: it is comparable)
	local rid f
	mac_state measure-m1
	# (the services' CPU not sampled: the measure-m1 test's subject, not
	# this one's, and some 20 processes a measure)
	EXECLAG_WATCH_SERVICES=0
	EXECLAG_SYSROOT="$SHARED/sysroot" run_both -0 sh "$ROOT/scripts/remedies" --launcher "$SIM"
	for f in "$RESULTS"/*/; do rid=${f%/}; rid=${rid##*/}; done
	EXECLAG_SYSROOT="$SHARED/sysroot" measure --probe 0 --launcher "$SIM" -- true
	assert_success
	the_measure
	# 12 programs x the hard link's first launch / 1 check at once
	expect .remedy.kind projection .remedy.placement exe-hardlink .remedy.remedies_run "$rid" \
		'(.remedy.checker_busy_s.median - 12 * .remedy.first_launch_ms.median / 1000) | fabs < 1e-6' true
	[[ "$stderr" == *"  Remedy (a projection, not measured): were the 12 programs launched again after a rebuild, placed as exe-hardlink (a hard link to a launched file, made long before: the placement make remedies run "*" says to use, first launch "*" ms), their checks would take "*" instead of B"* ]] ||
		fail "no remedy line: $stderr"
	[[ "$stderr" == *"  Programs that are new bytes every time (relinked): no placement helps; only the exemption does"* ]]
	# without a remedies run: said, and still what no placement helps (the
	# file's measure: mac_state measure-m1, measure_reusing --launcher "$SIM"
	# -- true, into results of its own)
	m1_measure
	[[ "$stderr" == *"  Remedy: no make remedies run on this machine to project from (make remedies measures each placement)"* ]]
	[[ "$stderr" == *"only the exemption does"* ]]
	the_measure
	expect .remedy.remedies_run null
}

@test "macOS: log show refusing is one line; W, L and the status still come" {
	mac_state log-refused
	# (the services' CPU not sampled: the measure-m1 test's subject, not
	# this one's, and some 20 processes a measure)
	EXECLAG_WATCH_SERVICES=0
	measure_reusing --launcher "$SIM" -- sh -c 'exit 5'
	assert_equal "$status" 5
	the_measure
	expect --probe .fresh_launches null .fresh_reason "log show refused: log: Must be admin to run 'show' command" \
		.checker_busy_s null '.penalty_ms.median == probe_l.median' true
	[[ "$stderr" == *"  N  unknown: log show refused: log: Must be admin to run 'show' command"* ]]
}

@test "macOS: no check in the window is N 0, said plainly, B 0 and a share of 0" {
	mac_state log-empty
	# (the services' CPU not sampled: the measure-m1 test's subject, not
	# this one's, and some 20 processes a measure)
	EXECLAG_WATCH_SERVICES=0
	measure_reusing --launcher "$SIM" -- true
	assert_success
	the_measure
	expect .fresh_launches 0 .checker_busy_s.median 0 .share.median 0
	[[ "$stderr" == *"  N  0 checks in the command's window: nothing new was checked"* ]]
}

# ---- Linux: the exec listener ---------------------------------------------------------

@test "macOS: a long window with background checks: N from those named in DIR and TMPDIR to plus unnamed" {
	mac_state measure-long
	# (the services' CPU not sampled: the measure-m1 test's subject, not
	# this one's, and some 20 processes a measure)
	EXECLAG_WATCH_SERVICES=0
	# (logcount's split of this window alone: tests/logcount.bats)
	# the measure: N a range, B and the share with it (the fake log's
	# window whatever the command's: W is below 232 x 150 ms whatever
	# the machine)
	measure_reusing --launcher "$SIM" -- true
	assert_success
	the_measure
	# 232 x 150 ms is past the command's W: a bottleneck at both ends
	expect .fresh_range.low 232 .fresh_range.high 496 .fresh_launches 496 .fresh.others_checks 512 \
		.fresh.checks_unnamed 264 \
		'(.checker_busy_range_s.low - 232 * .penalty_ms.median / 1000) | fabs < 1e-3' true \
		'(.checker_busy_range_s.high - 496 * .penalty_ms.median / 1000) | fabs < 1e-3' true \
		.bottleneck true
	[[ "$stderr" == *"  N  232 to 496 checks (GK performScan) in the command's window: 232 checks of 232 distinct programs in the command's folders, and 264 whose program it does not name"* ]]
	[[ "$stderr" == *"512 checks of programs outside the command's folders not counted"* ]]
}

# sized_files BYTES: the programs measure-m1's log names in the project
# folder, each BYTES long (sparse), but t7, which is gone
# (one truncate for the seven where there is one: a Mac has none, dd there)
sized_files() {
	local f fs=()
	mkdir -p "$P/target/debug/deps" "$P/target/debug/build/app-5e6f708192a3b4c5"
	for f in deps/t1-0a1b2c3d4e5f6071 deps/t2-1b2c3d4e5f607182 deps/t3-2c3d4e5f60718293 deps/t4-3d4e5f60718293a4 \
		deps/t5-4e5f60718293a4b5 deps/t6-5f60718293a4b5c6 build/app-5e6f708192a3b4c5/build-script-build; do
		fs+=("$P/target/debug/$f")
	done
	if command -v truncate >/dev/null; then
		truncate -s "$1" "${fs[@]}"
	else
		for f in "${fs[@]}"; do dd if=/dev/zero of="$f" bs=1 count=0 seek="$1" 2>/dev/null; done
	fi
}


@test "L at the programs' size: within 4x of the probe's program, L as probed and no second probe" {
	mac_state measure-m1
	# (the services' CPU not sampled: the measure-m1 test's subject, not
	# this one's, and some 20 processes a measure)
	EXECLAG_WATCH_SERVICES=0
	# the probe's program: its size in the file's measure (the same exe)
	local f
	for f in "$SHARED/size/results"/*/measure.json; do M=${f%/measure.json}; done
	fields .probe_program_bytes
	pb=${F[0]}
	[ "$pb" -gt 0 ] || fail "no probe program size in the file's measure"
	sized_files "$((pb * 2))"
	# (L from the file's probe: the sizes are weighed against its program
	# alone, reused or run; a probe run and sizes past 4x: the test above)
	measure_reusing --launcher "$SIM" -- true
	assert_success
	the_measure
	expect .program_sizes.median_bytes "$((pb * 2))" .penalty_at_size null .penalty_used probe
	for f in "$RESULTS"/*-probe-size; do [ ! -e "$f" ] || fail "a second probe: $f"; done
	[[ "$stderr" == *"the probe's program "*" (within 4x: L as probed)"* ]]
	[[ "$stderr" != *"L at "* ]]
}

@test "Linux, root: N counts each new program the command ran once, not old ones, not a script read by sh" {
	[[ "$OSTYPE" == linux* ]] || skip "the exec listener is Linux's" # (bash's OSTYPE: what uname -s names, no process)
	[ "$EUID" = 0 ] || skip "fanotify needs root"
	cp /bin/true "$P/old"
	sleep 0.05
	measure_reusing --launcher "$SIM" -- sh -c 'cp /bin/true n1; cp /bin/true n2; cp /bin/echo n3
		./n1; ./n1; ./n2; ./n3 x >/dev/null; ./old; ./n2 & wait
		printf "echo read\n" >s.sh; sh s.sh'
	assert_success
	assert_equal "$output" "read"
	the_measure
	[[ "$stderr" == *"  N  3 new programs launched (5 executions of files new since the start)"* ]]
	# their sizes, read at each one's first launch: two copies of true, one of echo
	local t e
	# (wc's blanks dropped by the shell, not a tr each)
	t=$(wc -c </bin/true)
	e=$(wc -c </bin/echo)
	t=${t//[!0-9]/} e=${e//[!0-9]/}
	expect .fresh_launches 3 .fresh_source fanotify .fresh.fresh_executions 5 \
		'[.fresh.first_programs[].path | sub(".*/"; "")] | join(",")' "n1,n2,n3" \
		'.fresh.old_executions > 0' true .fresh.overflow false \
		'(.checker_busy_s.median - 3 * .penalty_ms.median / 1000) | fabs < 1e-5' true \
		.program_sizes.source fanotify .program_sizes.known 3 .program_sizes.median_bytes "$t" \
		.program_sizes.largest_bytes "$((t > e ? t : e))" .fresh_range null
}

@test "Linux: without the listener, one line says N is unknown and the rest goes on" {
	[[ "$OSTYPE" == linux* ]] || skip "the exec listener is Linux's" # (bash's OSTYPE: what uname -s names, no process)
	EXECLAG_FANOTIFY=off measure_reusing --launcher "$SIM" -- sh -c 'cp /bin/true n1; ./n1'
	assert_success
	the_measure
	expect --probe .fresh_launches null '.penalty_ms.median == probe_l.median' true
	# one N line, and it says why
	local rest=$'\n'$stderr
	[[ "$rest" == *$'\n  N  unknown: '* ]] || fail "no N line: $stderr"
	rest=${rest#*$'\n  N  unknown: '}
	[[ "$rest" != *$'\n  N  unknown: '* ]] || fail "more than one N line: $stderr"
	[[ "$stderr" == *"  N  unknown: fanotify turned off (EXECLAG_FANOTIFY=off)"* ]]
}

@test "Linux, not root: the listener cannot watch, which one line says" {
	[[ "$OSTYPE" == linux* ]] || skip "the exec listener is Linux's" # (bash's OSTYPE: what uname -s names, no process)
	[ "$EUID" = 0 ] || skip "needs root to become another user (setpriv)"
	command -v setpriv >/dev/null || skip "no setpriv"
	# nobody must reach the test's folders: bats makes its own private
	local d=$D
	while [ "$d" != / ] && [ "$d" != "${BATS_RUN_TMPDIR%/*}" ]; do
		chmod o+x "$d"
		d=${d%/*}
		d=${d:-/}
	done
	chown -R 65534:65534 "$P" "$RESULTS" "$TMPDIR"
	setpriv --reuid=65534 --regid=65534 --clear-groups test -x "$ROOT/scripts/measure" -o -r "$ROOT/scripts/measure" ||
		skip "the kit is not readable by nobody here"
	setpriv --reuid=65534 --regid=65534 --clear-groups test -w "$P" || skip "the test folder is not nobody's to write"
	run_sep setpriv --reuid=65534 --regid=65534 --clear-groups \
		bash -c 'cd "$1" && exec sh "$ROOT/scripts/measure" --probe 0 -- sh -c "cp /bin/true n1; ./n1; echo ran"' _ "$P"
	assert_success
	assert_equal "$output" "ran"
	[[ "$stderr" == *"  N  unknown: no root: fanotify needs CAP_SYS_ADMIN"* ]]
}

# ---- signals ------------------------------------------------------------------------------

# ready_open: the FIFO $D/ready, held open on fd 4 for reading and writing
# (so that neither a writer's open nor this shell's blocks); a command
# says it has started with a line into it (echo >"$D/ready"), and
# ready_wait SECONDS reads that line: no polling, which started a sleep
# process every 50 ms (a second of CPU a test on a loaded machine)
ready_open() {
	mkfifo "$D/ready"
	exec 4<>"$D/ready"
}
ready_wait() {
	local line
	read -r -t "$1" -u 4 line
}

# start_measure ARGS...: the measure in the background in its own process
# group (as a terminal's job: SIGINT not ignored), its pid in $pid; waits
# for the command to have started (it writes a line into $D/ready)
start_measure() {
	[ -p "$D/ready" ] || ready_open
	set -m
	(cd "$P" && exec sh "$ROOT/scripts/measure" "$@" >"$D/out" 2>"$D/err" 4<&-) &
	pid=$!
	set +m
	ready_wait 30 || fail "the command did not start: $(cat "$D/err")"
}

@test "Ctrl-C (INT to the job) ends the command; the measure says what it saw, and exits 130" {
	need_sigint
	start_measure --probe 0 --launcher "$SIM" -- sh -c 'echo >"$0"; sleep 30' "$D/ready"
	kill -INT -- "-$pid"
	rc=0
	wait "$pid" || rc=$?
	assert_equal "$rc" 130
	local err
	slurp err "$D/err"
	[[ $'\n'"$err" == *$'\n     interrupted: SIGINT'* ]] || fail "no interrupted line: $err"
	[[ "$err" == *'ended by signal 2 (exit status 130)'* ]] || fail "$err"
	the_measure
	expect .exit.interrupted SIGINT
	nothing_left
}

@test "TERM to the measure is passed on; a command that ignores it is killed by a second" {
	start_measure --probe 0 --launcher "$SIM" -- sh -c 'echo >"$0"; sleep 30' "$D/ready"
	kill -TERM "$pid"
	rc=0
	wait "$pid" || rc=$?
	assert_equal "$rc" 143
	local err
	slurp err "$D/err"
	[[ "$err" == *'interrupted: SIGTERM (passed on)'* ]] || fail "$err"
	the_measure
	rm -rf "$M"
	# a command that does not end on TERM: it says it got it (a line into
	# $D/ready, the event the second TERM waits for: the first one passed
	# on, not two at once, which the measure would see as one) and goes on
	start_measure --probe 0 --launcher "$SIM" -- sh -c 'trap "echo >\"\$0\"" TERM; echo >"$0"; while :; do sleep 0.1; done' "$D/ready"
	kill -TERM "$pid"
	ready_wait 30 || fail "the TERM was not passed on: $(cat "$D/err")"
	kill -0 "$pid" # still running: the command does not end on TERM
	kill -TERM "$pid"
	rc=0
	wait "$pid" || rc=$?
	assert_equal "$rc" 137
	slurp err "$D/err"
	[[ "$err" == *'interrupted: SIGTERM (killed)'* ]] || fail "$err"
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
	# (one ln for them all; what is not a program there is never run)
	ln -s "$ROOT"/micro/bin/* "$D/bin/"
	rm "$D/bin/launch"
	ready_open
	printf '#!/bin/sh\ncase " $* " in *" --manifest "*) echo >"%s"; exec sleep 30 ;; esac\nexec "%s" "$@"\n' \
		"$D/ready" "$ROOT/micro/bin/launch" >"$D/bin/launch"
	chmod +x "$D/bin/launch"
	set -m
	(cd "$P" && EXECLAG_BIN="$D/bin" && export EXECLAG_BIN &&
		exec sh "$ROOT/scripts/measure" --launcher "$SIM" -- touch ran >"$D/out" 2>"$D/err" 4<&-) &
	pid=$!
	set +m
	ready_wait 60 || fail "the probe did not reach its launches: $(cat "$D/err")"
	kill -INT -- "-$pid"
	rc=0
	wait "$pid" || rc=$?
	assert_equal "$rc" 130
	[ ! -e "$P/ran" ]
	assert_equal "$(find "$RESULTS" -name measure.json -o -name run.json)" ""
	nothing_left
}

# ---- the answer: the measure's own cause and step ---------------------------------------

# (a measure ending with its cause and do lines: the probe's test above)

@test "a Mac's measure ends as make doctor would: the app and its Developer Tools step; over ssh, ssh's" {
	mac_measure plain
	run_both -0 "$BIN/advise" --run "$probe"
	local want=$output n nl
	nl=${want//[!$'\n']/}
	n=$((${#nl} + 1))
	[[ "$want" == *"Terminal is not a Developer Tool (Developer Tools: denied)"* ]]
	[[ "$want" == *"do: open System Settings › Privacy & Security › Developer Tools"* ]]
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
	local mine="$RESULTS/20260301T101500Z-f33dba" f
	cp -R "$ROOT/tests/fixtures/brief/mac-penalty" "$mine"
	"$BIN/analyze" --run "$mine" --quiet
	measure_reusing --launcher "$SIM" -- true
	assert_success
	run_both -0 sh "$ROOT/scripts/findrun" --newest
	assert_output "$mine"
	# one exercise's checks: the run is found before EXERCISE counts, and
	# the first line names it either way (the whole check's seven pattern
	# files are tests/check.bats'; here they cost some 3 s of CPU for one line)
	run_sep make -s --no-print-directory -C "$ROOT" check RESULTS="$RESULTS" EXERCISE=1
	assert_success
	assert_equal "${lines[0]}" "execlag check: $mine (exercise 1, docs/workshop.md)"
	run_sep make -s --no-print-directory -C "$ROOT" feedback RESULTS="$RESULTS" USER=jappleseed
	assert_success
	[ -f "$mine/feedback/feedback.txt" ] || fail "no $mine/feedback/feedback.txt"
	for f in "$RESULTS"/*-probe/feedback "$RESULTS"/.*-probe/feedback; do
		[ ! -e "$f" ] || fail "feedback for a probe: $f"
	done
	# with the probe alone, none is taken; named, it still is
	rm -rf "$mine"
	run_sep make -s --no-print-directory -C "$ROOT" feedback RESULTS="$RESULTS"
	assert_equal "$status" 2
	[[ "$stderr" == *"a measure's probe is not taken for one"* ]]
	run_sep make -s --no-print-directory -C "$ROOT" check RESULTS="$RESULTS"
	assert_equal "$status" 2
	[[ "$stderr" == *"a measure's probe is not taken for one"* ]]
	# (one exercise's checks: the run it names is the first line)
	run_sep make -s --no-print-directory -C "$ROOT" check RESULTS="$RESULTS" RUN=probe EXERCISE=1
	[[ "${lines[0]}" == "execlag check: $RESULTS/"*"-probe"* ]]
}

# ---- feedback ---------------------------------------------------------------------------

@test "make feedback MEASURE= bundles the measure, command and folder redacted; a simulated one is refused" {
	# redacted: its command line and folder; a simulated one: a measure whose probe ran on the simulator
	mac_state measure-m1
	# (the services' CPU not sampled: the measure-m1 test's subject, not
	# this one's, and some 20 processes a measure; the fake ps names no
	# user, the log's only one is the project folder's, made this test's)
	EXECLAG_WATCH_SERVICES=0
	export HOME="$D/home/jappleseed"
	mkdir -p "$HOME/src/app"
	P="$HOME/src/app"
	# L from the simulator is not evidence: refused, nothing made (a copy of
	# the file's measure of measure-m1 on the simulated probe)
	local f
	for f in "$SHARED/m1/results"/*/measure.json; do cp -R "${f%/measure.json}" "$RESULTS/"; done
	the_measure
	run_sep make -s --no-print-directory -C "$ROOT" feedback MEASURE="$M" RESULTS="$RESULTS"
	assert_equal "$status" 2
	[[ "$stderr" == *"is a measure whose probe was simulated"* ]]
	assert_equal "$(find "$RESULTS" -name feedback -type d)" ""
	# a measure.json that is no measure: refused in its reader's words
	# (scripts/feedback's refusal: make feedback MEASURE= is the call above
	# and the one below)
	mkdir -p "$D/notmeasure"
	printf '{"schema": "execlag-run"}\n' >"$D/notmeasure/measure.json"
	run_both sh "$ROOT/scripts/feedback" --measure "$D/notmeasure"
	assert_equal "$status" 2
	assert_line --index 0 "feedback: $D/notmeasure/measure.json is not an execlag measure"
	rm -rf "${RESULTS:?}"/*
	# a real run to file (the feedback tests' Mac fixture) and a measure
	# without a probe
	cp -R "$ROOT/tests/fixtures/feedback/mac-run" "$RESULTS/20260301T101500Z-f33dba"
	"$ROOT/micro/bin/analyze" --run "$RESULTS/20260301T101500Z-f33dba" --quiet
	measure --probe 0 -- sh -c 'echo jappleseed was here'
	assert_success
	the_measure
	run_sep make -s --no-print-directory -C "$ROOT" feedback MEASURE="$M" RESULTS="$RESULTS" USER=jappleseed
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
	local reason f st n=0
	# (the validator found once: each look is a python start)
	schema_validator_keep
	reason=$(schema_skip_reason)
	[ -z "$reason" ] || skip "$reason"
	mac_state log-refused
	# (the services' CPU not sampled: the measure-m1 test's subject, not
	# this one's, and some 20 processes a measure)
	EXECLAG_WATCH_SERVICES=0
	measure --probe 0 --launcher 'sim:latency=0 seed=3' -- true
	assert_success
	# and one of measure-m1's 12 checks on the file's probe: the file's
	# (setup_file: mac_state measure-m1, measure_reusing --launcher "$SIM" -- true)
	slurp st "$SHARED/m1.status"
	assert_equal "$st" 0
	# and one with the programs' sizes, N a range and L again at their size:
	# the file's (setup_file; the test of L at the programs' size reads it)
	slurp st "$SHARED/size.status"
	assert_equal "$st" 0
	for f in "$SHARED/m1/results"/*/measure.json "$SHARED/size/results"/*/measure.json; do
		[ ! -e "$f" ] || cp -R "${f%/measure.json}" "$RESULTS/"
	done
	# all three in one validator's run (a python start is a second here
	# under load); it names each invalid file
	case $(schema_validator) in
	python) run_both "$SCHEMA_PY" "$ROOT/tests/test_helper/validate-run.py" "$ROOT/docs/measure.schema.json" "$RESULTS"/*/measure.json ;;
	*) run_both check-jsonschema --schemafile "$ROOT/docs/measure.schema.json" "$RESULTS"/*/measure.json ;;
	esac
	[ "$status" -eq 0 ] || fail "$output"
	for f in "$RESULTS"/*/measure.json; do [ ! -e "$f" ] || n=$((n + 1)); done
	assert_equal "$n" 3
	assert_equal "$(jq -r 'select(.penalty_at_size != null) | .penalty_used' "$RESULTS"/*/measure.json)" at_size
}

@test "a run started beside a live measure, into the same results, leaves the measure's folder alone" {
	local part f
	# the command says it has started, then waits until the other run is
	# over: a line in the FIFO $D/go (held open here on fd 5)
	ready_open
	mkfifo "$D/go"
	exec 5<>"$D/go"
	(cd "$P" && exec sh "$ROOT/scripts/measure" --probe 0 --launcher "$SIM" -- sh -c 'echo >"$0"; read -r x <"$1"' "$D/ready" "$D/go" \
		>"$D/m.out" 2>"$D/m.err" 4<&- 5<&-) &
	local mpid=$!
	ready_wait 30 || fail "the command did not start: $(cat "$D/m.err")"
	for f in "$RESULTS"/.*.partial; do [ ! -d "$f" ] || part=$f; done
	[ -n "$part" ] || fail "no measure folder: $(cat "$D/m.err")"
	run_sep sh "$ROOT/scripts/repro" --cases exe --threads 1 --count 6 --launcher 'sim:latency=0 seed=1'
	assert_success
	[[ "$stderr" != *"removed the leftovers"* ]] || fail "$stderr"
	[ -d "$part" ] || fail "the live measure's folder went"
	echo >&5
	wait "$mpid" || fail "the measure failed: $(cat "$D/m.err")"
	the_measure
}

# The checker's health before the command (issue 43): the simulated
# storm's record kept, its state and figures in conditions.txt and
# measure.json, and the answer ends with the checker's lines, no Developer
# Tools step.
@test "a measure carries the checker's state and figures, and ends with the relief of a sick one" {
	# (no probe: the probe is not what this test asserts, and the storm's
	# launcher is comparable to no probe of the file's; the checker's
	# cause comes first with L unknown too)
	measure --probe 0 --launcher "$SIM storm=300" -- true
	assert_success
	the_measure
	[ -f "$M/health.tsv" ] || fail "no health.tsv in $M"
	grep -qx 'checker.state=storm' "$M/conditions.txt"
	expect '.conditions["checker.state"] + " " + .conditions["checker.rate"]' "storm 300.0"
	run_both -0 cat "$M/measure.txt"
	assert_line --regexp '^checker: storm — SIMULATED .* named most: /Applications/Simulated Driver\.app/Contents/MacOS/Simulated Driver \(18000 lines\)$'
	assert_line --regexp '^cause: the checker is sick, not slow'
	assert_line --regexp '^relief: 1\. quit the program driving the checker'
	refute_line --partial "Developer Tools ›"
}
