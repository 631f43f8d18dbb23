#!/usr/bin/env bats
# scripts/probe/services: the CPU time of the assessment services from
# `ps -axo pid=,time=,command=` (docs/macos.md §8), with the fake ps of
# tests/fakes replaying one state (or a before/after sequence).

load test_helper/common-setup
load test_helper/quickrun

setup() {
	_common_setup
	FAKES="$ROOT/tests/fakes"
	SERVICES="$ROOT/scripts/probe/services"
	COUNT="$BATS_TEST_TMPDIR/count"
	mkdir -p "$COUNT"
}

# services_in STATE SHELL ARGS...: run services under SHELL with the fakes
# first on PATH.
services_in() {
	local state=$1 shell=$2
	shift 2
	run_sep env PATH="$FAKES/bin:$PATH" FAKE_STATE="$FAKES/states/$state" \
		FAKE_COUNTER_DIR="$COUNT" $shell "$SERVICES" "$@"
}

T=$'\t'

# ---- the fake --------------------------------------------------------------------------

@test "fake ps replays the state byte for byte, and a sequence one sample per call" {
	run_both -0 env FAKE_STATE="$FAKES/states/ps-odd" "$FAKES/bin/ps" -axo pid=,time=,command=
	assert_equal "$output" "$(cat "$FAKES/states/ps-odd/ps.out")"
	# widths from docs/macos.md §8: pid right-aligned in 5, time in 9, one space between
	assert_line --index 1 "  612 123:45.67 /System/Library/PrivateFrameworks/XprotectFramework.framework/Versions/A/XPCServices/XprotectService.xpc/Contents/MacOS/XprotectService"
	local call # not i: bats' run uses that name
	for call in 1 2 3; do
		run_both -0 env FAKE_STATE="$FAKES/states/m1-watch" FAKE_COUNTER_DIR="$COUNT" \
			"$FAKES/bin/ps" -axo pid=,time=,command=
		if [ "$call" = 1 ]; then
			assert_line --index 1 "  168   9:15.14 /usr/libexec/syspolicyd"
		else # the after sample lists PID 100234, so every pid is 6 wide
			assert_line --index 1 "   168   9:15.45 /usr/libexec/syspolicyd"
		fi
	done
	assert_line --index 10 "100234   0:00.75 /System/Library/PrivateFrameworks/XprotectFramework.framework/Versions/A/XPCServices/XprotectService.xpc/Contents/MacOS/XprotectService"
}

@test "fake ps: a state without ps has none (127); other arguments are not recorded (64)" {
	run_both -127 env FAKE_STATE="$FAKES/states/m1-online" "$FAKES/bin/ps" -axo pid=,time=,command=
	run_both -64 env FAKE_STATE="$FAKES/states/ps-odd" "$FAKES/bin/ps" aux
	run_both -64 env -u FAKE_COUNTER_DIR FAKE_STATE="$FAKES/states/m1-watch" \
		"$FAKES/bin/ps" -axo pid=,time=,command=
	assert_output --partial "set FAKE_COUNTER_DIR"
}

# ---- sample ------------------------------------------------------------------------------

@test "sample: one line per service, instances summed, decoys in the arguments ignored (sh, dash, bash)" {
	local shell
	for shell in sh dash "bash --posix"; do
		rm -f "$COUNT/ps.count"
		services_in m1-watch "$shell" sample
		assert_success
		assert_equal "$stderr" ""
		assert_equal "$output" "syspolicyd${T}555.14${T}1${T}168=555.14
XprotectService${T}2555.77${T}1${T}612=2555.77
amfid${T}2.31${T}1${T}342=2.31
trustd${T}41.20${T}1${T}190=41.20
mdworker_shared${T}0.52${T}2${T}1201=0.12,1377=0.40"
	done
}

@test "sample: the after state, with a wider pid column and a new per-user XprotectService" {
	echo 1 >"$COUNT/ps.count"
	services_in m1-watch sh sample
	assert_success
	assert_line --index 1 "XprotectService${T}2559.55${T}2${T}612=2558.80,100234=0.75"
	assert_line --index 4 "mdworker_shared${T}0.60${T}2${T}1377=0.52,5120=0.08"
}

@test "sample: any number of minutes, a bare program name, near-miss names, a time that does not parse" {
	services_in ps-odd sh sample
	assert_success
	assert_equal "$output" "syspolicyd${T}unknown${T}1${T}168=?
XprotectService${T}81470.67${T}2${T}612=7425.67,613=74045.00
amfid${T}1.50${T}1${T}342=1.50
trustd${T}0.00${T}0${T}-
mdworker_shared${T}0.00${T}0${T}-"
}

@test "sample: a process shown as (name), without its arguments, still counts" {
	# not in docs/macos.md: BSD ps prints "(comm)" when it cannot read the
	# arguments, so this state is made here rather than in tests/fakes/states
	local st="$BATS_TEST_TMPDIR/paren"
	mkdir -p "$st"
	printf '%5s %9s %s\n' 342 0:01.50 '(amfid)' 343 0:00.10 '(amfid) x' >"$st/ps.out"
	run_sep env PATH="$FAKES/bin:$PATH" FAKE_STATE="$st" sh "$SERVICES" sample
	assert_success
	assert_line --index 2 "amfid${T}1.50${T}1${T}342=1.50"
}

@test "sample: no ps is one line on stderr and exit 1" {
	services_in m1-online sh sample
	assert_equal "$status" 1
	assert_equal "$output" ""
	assert_equal "$stderr" "services: ps -axo pid=,time=,command= failed (exit 127): sh: ps: command not found"
}

# ---- record ------------------------------------------------------------------------------

@test "record: a before and an after sample make the services file analyze reads" {
	local f="$BATS_TEST_TMPDIR/exe-t1-all.services.tsv"
	services_in m1-watch sh record "$f" before
	assert_success
	services_in m1-watch sh record "$f" after
	assert_success
	# the fixture of tests/services-log.bats was made this way; only the times differ
	run_both diff <(grep -v '^sample' "$f") \
		<(grep -v '^sample' "$FIXTURES/services-log/mac/raw/exe-t1-all.services.tsv")
	assert_success
	run_both grep -c -E "^sample${T}(before|after)${T}[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9:]{8}Z$" "$f"
	assert_output 2
	assert_equal "$(ls -A "$BATS_TEST_TMPDIR" | grep -c '^\.services')" 0
}

@test "record: a failed ps is an error line, not a failure" {
	local f="$BATS_TEST_TMPDIR/x.services.tsv"
	services_in m1-online sh record "$f" before
	assert_success
	assert_equal "$stderr" ""
	run_both sed -n 3p "$f"
	assert_output "error${T}before${T}ps -axo pid=,time=,command= failed (exit 127): sh: ps: command not found"
}

@test "record: a folder that cannot be written is exit 1 with one line, the old file kept" {
	[ "$(id -u)" != 0 ] || skip "root writes into read-only folders"
	local d="$BATS_TEST_TMPDIR/ro"
	mkdir "$d"
	chmod 555 "$d"
	services_in m1-watch sh record "$d/x.services.tsv" before
	chmod 755 "$d"
	assert_equal "$status" 1
	assert_equal "${#stderr_lines[@]}" 1
}

@test "record: the file is replaced whole (temporary file and rename), nothing else left" {
	local f="$BATS_TEST_TMPDIR/w/x.services.tsv"
	mkdir -p "$BATS_TEST_TMPDIR/w"
	services_in m1-watch sh record "$f" before
	local inode
	inode=$(ls -i "$f" | awk '{ print $1 }')
	services_in m1-watch sh record "$f" after
	[ "$(ls -i "$f" | awk '{ print $1 }')" != "$inode" ] || fail "the file was written in place"
	assert_equal "$(ls -A "$BATS_TEST_TMPDIR/w")" x.services.tsv
}

# ---- usage ---------------------------------------------------------------------------------

@test "--help and bad usage: exit 0, and exit 2 with one line" {
	run_both -0 sh "$SERVICES" --help
	assert_line --index 0 "usage: services sample"
	local args
	for args in "" "frobnicate" "sample extra" "record" "record /tmp/x during" "record /nonexistent/x before"; do
		# shellcheck disable=SC2086
		run_sep sh "$SERVICES" $args
		assert_equal "'$args': $status" "'$args': 2"
		assert_equal "'$args': ${#stderr_lines[@]}" "'$args': 1"
		assert_equal "$output" ""
	done
}

