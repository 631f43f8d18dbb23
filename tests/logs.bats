#!/usr/bin/env bats
# scripts/probe/logs: the unified log excerpt of one case's window, taken with the
# fake `log` of tests/fakes (docs/macos.md §4): a normal excerpt, an empty one,
# a refusal, a missing log, and the size bounds.

load test_helper/common-setup
load test_helper/quickrun

setup() {
	_common_setup
	FAKES="$ROOT/tests/fakes"
	LOGS="$ROOT/scripts/probe/logs"
	OUT="$BATS_TEST_TMPDIR/out"
	mkdir -p "$OUT"
	ARGS="$BATS_TEST_TMPDIR/log-args"
}

PREDICATE='(process == "syspolicyd" AND subsystem BEGINSWITH "com.apple.syspolicy") OR process == "XprotectService" OR process == "amfid" OR (process == "kernel" AND (eventMessage CONTAINS "CODE SIGNING" OR eventMessage CONTAINS "load code signature error" OR eventMessage CONTAINS "ASP: Security policy would not allow process"))'

# excerpt STATE [SHELL] [ARGS...]: logs excerpt of 10:30:00..10:30:02 with the
# fake log of STATE, into $OUT/x.
excerpt() {
	local state=$1 shell=${2:-sh}
	shift 2 || shift
	run_sep env EXECLAG_LOG="$FAKES/bin/log" FAKE_STATE="$FAKES/states/$state" \
		FAKE_LOG_ARGS="$ARGS" $shell "$LOGS" excerpt --start "2024-01-15 10:30:00" \
		--end "2024-01-15 10:30:02" --out "$OUT/x" "$@"
}

# st KEY: KEY's value in $OUT/x.log.status (sed -n "s/^KEY\t//p"'s; the
# keys are each on one line, once) in $st, read by the shell: no process,
# no $( ) (a sed was one a key), a few commands under bats' trap
st() {
	local rec nl=$'\n'
	IFS= read -r -d '' rec <"$OUT/x.log.status" || :
	rec=$nl$rec
	st=
	[[ "$rec" != *"$nl$1	"* ]] || st=${rec#*"$nl$1	"}
	st=${st%%"$nl"*}
}

assert_nothing_left() {
	run_both find "$OUT" -name '.log.*'
	assert_output ""
}

# ---- the fake --------------------------------------------------------------------------------

@test "fake log: the recorded excerpt, the empty one, the refusal (stderr, exit 1), a missing log" {
	local args=(show --start "2024-01-15 10:30:00" --end "2024-01-15 10:30:03" --style ndjson --predicate "$PREDICATE")
	run_both -0 env FAKE_STATE="$FAKES/states/m1-watch" "$FAKES/bin/log" "${args[@]}"
	assert_equal "$output" "$(cat "$FAKES/states/m1-watch/log.out")"
	run_both -0 env FAKE_STATE="$FAKES/states/log-empty" "$FAKES/bin/log" "${args[@]}"
	assert_output ""
	run_sep env FAKE_STATE="$FAKES/states/log-refused" "$FAKES/bin/log" "${args[@]}"
	assert_equal "$status" 1
	assert_equal "$output" ""
	assert_equal "$stderr" "log: Must be admin to run 'show' command"
	run_both -127 env FAKE_STATE="$FAKES/states/m1-online" "$FAKES/bin/log" "${args[@]}"
}

@test "fake log: a window not in YYYY-MM-DD HH:MM:SS, or another command, is not recorded (64)" {
	run_both -64 env FAKE_STATE="$FAKES/states/m1-watch" "$FAKES/bin/log" show --start 10:30 \
		--end "2024-01-15 10:30:03" --style ndjson --predicate x
	run_both -64 env FAKE_STATE="$FAKES/states/m1-watch" "$FAKES/bin/log" stream --style ndjson
}

@test "the recorded excerpt: its JSON lines in order, each one event with the keys docs/macos.md lists" {
	local line
	tail -n +2 "$FAKES/states/m1-watch/log.out" >"$BATS_TEST_TMPDIR/events"
	run_both jq -s 'length' "$BATS_TEST_TMPDIR/events"
	assert_output 16
	run_both jq -r 'keys_unsorted | join(",")' "$BATS_TEST_TMPDIR/events"
	for line in "${lines[@]}"; do
		assert_equal "$line" "traceID,eventMessage,eventType,source,formatString,activityIdentifier,subsystem,category,threadID,senderImageUUID,backtrace,bootUUID,processImagePath,timestamp,senderImagePath,machTimestamp,messageType,processImageUUID,processID,senderProgramCounter,parentActivityIdentifier,timezoneName"
	done
	run_both jq -r 'select(.eventMessage | startswith("GK performScan: PST: (path: ")) | .timestamp' "$BATS_TEST_TMPDIR/events"
	assert_equal "${#lines[@]}" 3
	assert_line --index 0 --regexp '^2024-01-15 10:30:00\.[0-9]{6}-0800$'
}

# ---- excerpt ----------------------------------------------------------------------------------

@test "a normal excerpt: the JSON lines kept, the banner dropped and counted (sh, dash, bash)" {
	local shell got want first
	for shell in sh dash "bash --posix"; do
		rm -f "$OUT"/x.*
		excerpt m1-watch "$shell"
		assert_success
		assert_equal "$stderr" ""
		assert_output ""
		got= want=
		IFS= read -r -d '' got <"$OUT/x.log.ndjson" || :
		IFS= read -r -d '' want <"$FAKES/states/m1-watch/log.out" || :
		want=${want#*$'\n'}
		[ "$got" = "$want" ] || fail "$shell: the excerpt is not log.out's lines after the first"
		st result
		assert_equal "$st" ok
		st lines
		assert_equal "$st" 16
		st skipped
		assert_equal "$st" 1
		st exit
		assert_equal "$st" 0
		# (sed -n 1p, diff and tail -n +2: the shell's reads and compares)
		IFS= read -r first <"$OUT/x.log.status"
		assert_equal "$first" "execlag-log	1"
	done
	assert_nothing_left
}

@test "log show is asked for the window to the end of its last second, with the predicate" {
	excerpt m1-watch
	assert_success
	# (cat's output as $( ) gives it, read by the shell)
	local args=
	IFS= read -r -d '' args <"$ARGS" || :
	assert_equal "${args%$'\n'}" "show
--start
2024-01-15 10:30:00
--end
2024-01-15 10:30:03
--info
--debug
--style
ndjson
--predicate
$PREDICATE
--"
	st start
	assert_equal "$st" "2024-01-15 10:30:00"
	st end
	assert_equal "$st" "2024-01-15 10:30:03"
}

@test "the end second carries into minutes, hours, days, months and years (leap years too)" {
	local pair end want
	for pair in "2024-01-15 10:59:59=2024-01-15 11:00:00" "2024-01-15 23:59:59=2024-01-16 00:00:00" \
		"2024-02-28 23:59:59=2024-02-29 00:00:00" "2023-02-28 23:59:59=2023-03-01 00:00:00" \
		"2000-02-28 23:59:59=2000-02-29 00:00:00" "2100-02-28 23:59:59=2100-03-01 00:00:00" \
		"2024-04-30 23:59:59=2024-05-01 00:00:00" "2024-12-31 23:59:59=2025-01-01 00:00:00"; do
		end=${pair%%=*} want=${pair#*=}
		run_both -0 env EXECLAG_LOG="$FAKES/bin/log" FAKE_STATE="$FAKES/states/log-empty" \
			sh "$LOGS" excerpt --start "2000-01-01 00:00:00" --end "$end" --out "$OUT/x"
		st end
		assert_equal "$end: $st" "$end: $want"
	done
}

@test "an empty excerpt is ok with no lines" {
	excerpt log-empty
	assert_success
	st result
	assert_equal "$st" ok
	st lines
	assert_equal "$st" 0
	[ -f "$OUT/x.log.ndjson" ]
	[ ! -s "$OUT/x.log.ndjson" ]
}

@test "a refusing log is recorded (message, exit status) and is not an error" {
	excerpt log-refused
	assert_success
	assert_equal "$stderr" ""
	st result
	assert_equal "$st" refused
	st exit
	assert_equal "$st" 1
	st message
	assert_equal "$st" "log: Must be admin to run 'show' command"
	[ ! -e "$OUT/x.log.ndjson" ]
	assert_nothing_left
}

@test "a log that cannot be run is recorded the same way" {
	run_both -0 env EXECLAG_LOG=/nonexistent/log sh "$LOGS" excerpt --start "2024-01-15 10:30:00" \
		--end "2024-01-15 10:30:02" --out "$OUT/x"
	st result
	assert_equal "$st" refused
	st exit
	assert_equal "$st" 127
	st message
	[ -n "$st" ]
}

@test "the excerpt is bounded in lines and in bytes, and the status says it was cut" {
	excerpt m1-watch sh --max-lines 5
	assert_success
	assert_equal "$(wc -l <"$OUT/x.log.ndjson" | tr -d ' ')" 5
	st result
	assert_equal "$st" cut
	st message
	assert_equal "$st" "kept the first 5 lines: the excerpt reached the limit"
	excerpt m1-watch sh --max-bytes 4000
	st result
	assert_equal "$st" cut
	[ "$(wc -c <"$OUT/x.log.ndjson")" -le 4000 ]
	[ "$(wc -l <"$OUT/x.log.ndjson")" -ge 1 ]
}

@test "by default at most 20000 lines are kept" {
	local st="$BATS_TEST_TMPDIR/big"
	mkdir -p "$st"
	awk 'BEGIN { for (i = 0; i < 25000; i++) printf "{\"traceID\":%d,\"eventMessage\":\"x\"}\n", i }' >"$st/log.out"
	run_both -0 env EXECLAG_LOG="$FAKES/bin/log" FAKE_STATE="$st" sh "$LOGS" excerpt \
		--start "2024-01-15 10:30:00" --end "2024-01-15 10:30:02" --out "$OUT/x"
	st result
	assert_equal "$st" cut
	st lines
	assert_equal "$st" 20000
	st limit
	assert_equal "$st" "20000 lines, 2097152 bytes"
	assert_equal "$(wc -l <"$OUT/x.log.ndjson" | tr -d ' ')" 20000
}

@test "off macOS without EXECLAG_LOG the step is skipped and log is not run" {
	[ "$(uname -s)" != Darwin ] || skip "this is macOS"
	run_sep env -u EXECLAG_LOG sh "$LOGS" excerpt --start "2024-01-15 10:30:00" \
		--end "2024-01-15 10:30:02" --out "$OUT/x"
	assert_success
	st result
	assert_equal "$st" skipped
	st message
	assert_equal "$st" "no unified log: this is $(uname -s), not macOS"
	[ ! -e "$OUT/x.log.ndjson" ]
}

@test "an interrupted excerpt leaves no temporary file and no result" {
	local slow="$BATS_TEST_TMPDIR/slow-log" pid
	# a log that prints one event, then waits (as itself, so its PID is known)
	printf '#!/bin/sh\necho $$ >"%s"\necho "{\\"eventMessage\\":\\"GK performScan: x\\"}"\nexec sleep 30\n' \
		"$BATS_TEST_TMPDIR/slow.pid" >"$slow"
	chmod +x "$slow"
	EXECLAG_LOG="$slow" sh "$LOGS" excerpt --start "2024-01-15 10:30:00" \
		--end "2024-01-15 10:30:02" --out "$OUT/x" &
	pid=$!
	# the log has started (it wrote its pid): the excerpt is under way
	local i=0
	until [ -s "$BATS_TEST_TMPDIR/slow.pid" ] || [ $i -ge 200 ]; do
		sleep 0.05
		i=$((i + 1))
	done
	[ -s "$BATS_TEST_TMPDIR/slow.pid" ] || fail "the log was not started within 10 s"
	# both, as a Ctrl-C reaches the whole group: the shell runs its trap
	# once the log it waits for has ended (not after the log's 30 s)
	kill -TERM "$pid"
	kill "$(cat "$BATS_TEST_TMPDIR/slow.pid")" 2>/dev/null || true
	wait "$pid" || true
	run_both find "$OUT" -mindepth 1
	assert_output ""
}

# ---- usage --------------------------------------------------------------------------------------

@test "bad usage is one line on stderr and exit 2" {
	local -a bad
	bad=("" "frobnicate" "excerpt --start 10:30 --end '2024-01-15 10:30:02' --out $OUT/x"
		"excerpt --start '2024-01-15 10:30:03' --end '2024-01-15 10:30:02' --out $OUT/x"
		"excerpt --start '2024-01-15 10:30:00' --end '2024-01-15 10:30:02'"
		"excerpt --start '2024-01-15 10:30:00' --end '2024-01-15 10:30:02' --out /nonexistent/x"
		"excerpt --start '2024-01-15 10:30:00' --end '2024-01-15 10:30:02' --out $OUT/x --max-lines 0"
		"excerpt --start '2024-01-15 10:30:00' --end '2024-01-15 10:30:02' --out $OUT/x --last 5m")
	local args
	for args in "${bad[@]}"; do
		eval "run --separate-stderr sh \"\$LOGS\" $args"
		assert_equal "[$args] $status" "[$args] 2"
		assert_equal "[$args] ${#stderr_lines[@]}" "[$args] 1"
		[[ "$stderr" == "logs: "* ]] || fail "[$args] $stderr"
	done
	run_both find "$OUT" -mindepth 1
	assert_output ""
	run_both -0 sh "$LOGS" --help
	assert_line --index 0 --partial "usage: logs excerpt"
}

