#!/usr/bin/env bats
# The shell library (issue 35, item 4): scripts/lib/check (fail, is_uint,
# in_range, is_ms), scripts/lib/child (run_child, end_child, run_bounded), scripts/lib/gate
# (GATE's parsing, start, watchdog and stop) and scripts/lib/findrun (the run
# finder), each written once and sourced by every script that needs it.
# The routines are called here as the scripts call them; then each script
# runs on a copy of the kit whose library is marked, and what it says or
# does carries the mark: a script with a copy of its own would not.

load test_helper/common-setup
load test_helper/quickrun

setup() {
	_common_setup
	T="$BATS_TEST_TMPDIR"
}

# lib FILE...: the library's FILEs sourced into this shell, as sh has them
lib() {
	local f
	for f in "$@"; do
		# shellcheck disable=SC1090
		. "$ROOT/scripts/lib/$f"
	done
}

# ---- median ----------------------------------------------------------------------------

@test "median: the middle number, the middle two's mean, nan for none, a word that is no number" {
	lib median
	assert_equal "$(printf '3\n1\n2\n' | median)" 2
	assert_equal "$(printf '4\n1\n3\n2\n' | median)" 2.5
	assert_equal "$(printf '10\n9\n\n' | median)" 9.5
	assert_equal "$(printf '' | median)" nan
	assert_equal "$(printf -- '-1\n-3\n5\n' | median)" -1
	assert_equal "$(printf '1.5\ncap\n2\n' | median)" cap
}

# ---- check: fail, is_uint, in_range, is_ms --------------------------------------------

@test "is_uint, in_range, is_ms take what the scripts take, only that; fail: one line, exit 2, text as data" {
	lib check
	local v
	for v in 0 7 007 123456789; do is_uint "$v" || fail "is_uint $v"; done
	for v in '' -1 +1 1.0 ' 1' 1234567890 x '*'; do ! is_uint "$v" || fail "is_uint '$v'"; done
	in_range 64 1 64
	in_range 1 1 64
	# (each refusal its own line: a ! command never fails a test under set -e)
	for v in 0 65 '' 1x; do ! in_range "$v" 1 64 || fail "in_range '$v' 1 64"; done
	for v in 0 20 0.5 20.25 59999.999 60000 000020; do is_ms "$v" || fail "is_ms $v"; done
	for v in '' .5 5. 1.2.3 -1 1e3 60000.5 60001 60000.0 abc ' 20' 1234567890; do
		! is_ms "$v" || fail "is_ms '$v'"
	done
	# (was: "fail: one line on stderr named for the script, exit 2, the text as data")
	run_sep sh -c '. "$1/scripts/lib/check"; fail "TAG '\''a\nb'\'' is bad"' _ "$ROOT"
	assert_equal "$status" 2
	assert_equal "$output" ""
	assert_equal "$stderr" "execlag: TAG 'a\\nb' is bad"
	run_sep sh -c '. "$1/scripts/lib/check"; prog=feedback; fail x y' _ "$ROOT"
	assert_equal "$status" 2
	assert_equal "$stderr" "feedback: x y"
}

# ---- child: run_child, end_child -----------------------------------------------------

@test "run_child: its status, caller's stdin, \$child; waits on through a returning trap; end_child ends it" {
	# (stderr apart: a shell may say "Terminated" of the killed one)
	run_sep sh -c '. "$1/scripts/lib/child"
		run_child sh -c "exit 7"; echo "status $? child=[$child]"
		echo "from stdin" | run_child cat
		run_child cat </dev/null; echo "null $?"
		run_child sh -c "kill -TERM \$\$"; echo "killed $?"' _ "$ROOT"
	assert_success
	assert_line --index 0 "status 7 child=[]"
	assert_line --index 1 "from stdin"
	assert_line --index 2 "null 0"
	assert_line --index 3 "killed 143"
	# (was: "run_child waits on through a trap that returns; end_child ends the child")
	# a trap that returns (scripts/measure passes the signal on) interrupts
	# wait: the child is waited for again, its own status kept
	run_both sh -c '. "$1/scripts/lib/child"
		trap "echo trapped" USR1
		(sleep 0.3; kill -USR1 $$) &
		run_child sh -c "sleep 1; exit 5"; echo "status $?"
		run_child sh -c "sleep 0.2" ; echo "short $?"
		sh -c "sleep 30" & child=$!
		end_child; echo "ended [$child]"' _ "$ROOT"
	assert_success
	assert_line --index 0 trapped
	assert_line --index 1 "status 5"
	assert_line --index 2 "short 0"
	assert_line --index 3 "ended []"
}

@test "run_bounded: status in bound, 124 and killed past it; run_watched: bound from the file's last move" {
	# the second command ignores TERM, as a process a checker holds in open
	# or execve does not act on it: only KILL ends it
	run_sep sh -c '. "$1/scripts/lib/child"
		run_bounded 5 sh -c "exit 3"; echo "status $? child=[$child]"
		run_bounded 1 sh -c "trap \"\" TERM; echo \$\$ >\"$2/pid\"; exec sleep 30"; echo "bounded $? child=[$child]"
		{ read -r p <"$2/pid" && kill -0 "$p"; } 2>/dev/null && echo "still running" || echo gone
		run_bounded 5 cat; echo "stdin $?"' _ "$ROOT" "$T"
	assert_success
	assert_line --index 0 "status 3 child=[]"
	assert_line --index 1 "bounded 124 child=[]"
	assert_line --index 2 gone
	assert_line --index 3 "stdin 0"
	refute_line --partial "still running"
	# (was: "run_watched: its bound counts from the file's last move, so a step that moves runs on past it")
	# a bound of 1 s, and a step that ends (4) once the watchdog has looked
	# five times: every look sees a move, so it runs on past its bound (a
	# step that stops moving is killed: hyperfine.bats' repeats).  The
	# watchdog's second is a stand-in sleep that moves the file, so that
	# every look finds a move however slow or busy the machine (a step
	# writing ten times a second on a real clock was killed at load 18:
	# a second without a write)
	mkdir -p "$T/bin"
	cat >"$T/bin/sleep" <<'EOF'
#!/bin/sh
[ "$1" = 1 ] || exec "$REAL_SLEEP" "$@"
n=0
{ read -r n <"$MOVES"; } 2>/dev/null
echo $((n + 1)) >"$MOVES.new" && mv "$MOVES.new" "$MOVES"
EOF
	chmod +x "$T/bin/sleep"
	REAL_SLEEP=$(command -v sleep) MOVES="$T/progress" PATH="$T/bin:$PATH" \
		run_sep sh -c '. "$1/scripts/lib/child"
		run_watched 1 "$2/progress" sh -c "n=0; while [ \$n -lt 5 ]; do sleep 0.05; { read -r n <\"$2/progress\"; } 2>/dev/null; n=\${n:-0}; done; exit 4"
		echo "moving $? child=[$child]"' _ "$ROOT" "$T"
	assert_success
	assert_output "moving 4 child=[]"
}

# ---- gate: parse, conditions, start, watch, stop --------------------------------------

# gate_run SPEC [wedge]: gate_parse as the scripts run it, on a machine that
# can run the gate (os Linux, root, a gate program), then its conditions
# (the stand-ins made once a test; run_sep, which sets $lines for
# assert_line too: a test runs it some twenty times)
gate_run() {
	if [ ! -x "$T/fakeid/id" ]; then
		mkdir -p "$T/bin" "$T/fakeid"
		printf '#!/bin/sh\nexit 0\n' >"$T/bin/gate"
		printf '#!/bin/sh\necho 0\n' >"$T/fakeid/id"
		chmod +x "$T/bin/gate" "$T/fakeid/id"
	fi
	PATH="$T/fakeid:$PATH" kit_untraced run_sep sh -c '. "$1/scripts/lib/check"; . "$1/scripts/lib/gate"
		os=Linux bin=$2
		gate_parse "$3" ${4:-}
		gate_conditions "$3" ${4:-}' _ "$ROOT" "$T/bin" "$@"
}

@test "gate_parse: settings, defaults, wedge where asked; a bad one: one line, exit 2, never globbed" {
	gate_run 'latency=0.5 workers=4 key=path exempt=1 on=open every=3 per_mb=2 wedge=9' wedge
	assert_success
	assert_equal "$output" "gate.active=1
gate.latency_ms=0.5
gate.workers=4
gate.key=path
gate.exempt=1
gate.on=open
gate.every_ms=3
gate.per_mb_ms=2
gate.wedge=9"
	gate_run 'latency=20'
	assert_success
	assert_equal "$output" "gate.active=1
gate.latency_ms=20
gate.workers=1
gate.key=inode
gate.exempt=0
gate.on=exec
gate.every_ms=0
gate.per_mb_ms=0"
	# the key of inode and mtime, and a share of checks refused (kill=R),
	# said only where set
	gate_run 'key=inode-mtime kill=0.25'
	assert_success
	assert_line "gate.key=inode-mtime"
	assert_line "gate.kill=0.25"
	gate_run 'kill=0'
	assert_success
	refute_line --partial "gate.kill"
	run_both sh -c '. "$1/scripts/lib/gate"; gate_conditions ""' _ "$ROOT"
	assert_output "gate.active=0"
	# (was: "gate_parse refuses a bad setting in one line, exit 2; the words are never globbed")
	local spec want
	touch "$T/latency=1"
	cd "$T"
	while IFS='|' read -r spec want; do
		gate_run "$spec"
		assert_equal "$spec: $status" "$spec: 2"
		assert_equal "$spec: $stderr" "$spec: execlag: $want"
	done <<'EOF'
latency=x|GATE latency 'x' is not a number of ms from 0 to 60000 (e.g. 20 or 0.5)
workers=0|GATE workers '0' is not a whole number from 1 to 64
workers=65|GATE workers '65' is not a whole number from 1 to 64
key=nose|GATE key 'nose' is not one of inode, path, content, inode-mtime
kill=2|GATE kill '2' is not a share from 0 to 1 (e.g. 0.25)
kill=0.5.1|GATE kill '0.5.1' is not a share from 0 to 1 (e.g. 0.25)
kill=1.5|GATE kill '1.5' is not a share from 0 to 1 (e.g. 0.25)
kill=0.|GATE kill '0.' is not a share from 0 to 1 (e.g. 0.25)
exempt=2|GATE exempt '2' is not 0 or 1
on=read|GATE on 'read' is not exec or open
every=-1|GATE every '-1' is not a number of ms from 0 to 60000 (e.g. 3 or 0.5)
per_mb=1e3|GATE per_mb '1e3' is not a number of ms from 0 to 60000 (e.g. 2 or 0.5)
wedge=3|GATE setting 'wedge=3' is unknown (use latency=MS workers=N key=inode|path|content|inode-mtime exempt=0|1 on=exec|open every=MS per_mb=MS exhausted=0|1 kill=R)
latency=*|GATE latency '*' is not a number of ms from 0 to 60000 (e.g. 20 or 0.5)
l*|GATE setting 'l*' is unknown (use latency=MS workers=N key=inode|path|content|inode-mtime exempt=0|1 on=exec|open every=MS per_mb=MS exhausted=0|1 kill=R)
latency=1 latency=2|GATE sets latency twice
EOF
	gate_run 'wedge=-1' wedge
	assert_equal "$status" 2
	assert_equal "$stderr" "execlag: GATE wedge '-1' is not a whole number from 0 to 1000000"
	run_sep sh -c '. "$1/scripts/lib/check"; . "$1/scripts/lib/gate"; os=Darwin bin=/none; gate_parse latency=1' _ "$ROOT"
	assert_equal "$status" 2
	assert_equal "$stderr" "execlag: the calibration gate needs Linux (fanotify); this is Darwin"
}

# fake_gate BODY: a gate program (sh) that runs BODY with its arguments
fake_gate() {
	mkdir -p "$T/bin"
	printf '#!/bin/sh\n%s\n' "$1" >"$T/bin/gate"
	chmod +x "$T/bin/gate"
}

# quick_sleep: $T/qs holds a stand-in sleep that returns at once for the
# durations listed in QUICK_SLEEP (words), else is the real sleep: a
# library loop's waits (the ready file's tenths, the watchdog's half
# seconds) pass without the clock, so that the test waits only for the
# processes it watches, however busy the machine.  PATH="$T/qs:$PATH" and
# QUICK_SLEEP on a call give it to that call alone.
quick_sleep() {
	mkdir -p "$T/qs"
	printf '#!/bin/sh\ncase " $QUICK_SLEEP " in *" $1 "*) exit 0 ;; esac\nexec %s "$@"\n' "$(command -v sleep)" >"$T/qs/sleep"
	chmod +x "$T/qs/sleep"
}

# in_gate_lib SCRIPT...: sh with the check and gate library, os=Linux, bin
# the fake gate's folder, the settings parsed as if GATE were latency=5
in_gate_lib() {
	run_sep sh -c '. "$1/scripts/lib/check"; . "$1/scripts/lib/gate"
		bin=$2 T=$3
		gate_latency=5 gate_workers=1 gate_key=inode gate_exempt=0 gate_on=exec gate_every=0 gate_per_mb=0 gate_wedge=0
		'"$1" _ "$ROOT" "$T/bin" "$T"
}

@test "gate_start: the gate's arguments, ready; a gate that refuses or dies is one line and its status" {
	# ready: it writes the ready file named after --ready-file, then waits
	fake_gate 'printf "%s\n" "$@" >"$GATE_ARGS"; while [ $# -gt 0 ]; do [ "$1" != --ready-file ] || : >"$2"; shift; done; exec sleep 30'
	GATE_ARGS="$T/args" in_gate_lib 'export GATE_ARGS; gate_start "$T" "$T/gate.log" 5 "" --dir /w --heartbeat "$T/beat"
		echo "started $?"; p=$gate_pid; gate_stop; echo "stopped [$gate_pid]"; kill -0 "$p" 2>/dev/null || echo gone'
	assert_success
	assert_output "started 0
stopped []
gone"
	assert_equal "$(tr '\n' ' ' <"$T/args")" "--dir /w --heartbeat $T/beat --latency-ms 5 --workers 1 --key inode --on exec --every-ms 0 --per-mb-ms 0 --log $T/gate.log --ready-file $T/gate.ready "
	rm -f "$T/gate.ready"
	fake_gate 'echo "gate: --dir /w: not a directory" >&2; exit 2'
	in_gate_lib 'gate_start "$T" "$T/gate.log" 5 ""; echo "status $? [$gate_pid]"'
	assert_output "status 2 []"
	assert_equal "$stderr" "execlag: the calibration gate did not start: gate: --dir /w: not a directory"
	fake_gate 'echo "gate: fanotify_init: Operation not permitted" >&2; exit 1'
	in_gate_lib 'gate_start "$T" "$T/gate.log" 5 ""; echo "status $?"'
	assert_output "status 1"
	fake_gate 'exec sleep 30'
	# (its 1 s bound: ten looks a tenth apart, the tenths the stand-in's)
	quick_sleep
	PATH="$T/qs:$PATH" QUICK_SLEEP=0.1 in_gate_lib 'gate_start "$T" "$T/gate.log" 1 " (marking the folders below /w)"; echo "status $?"; gate_stop'
	assert_output "status 1"
	# (its first line: bash 3.2 says "Terminated" of the gate gate_stop ended)
	assert_equal "${stderr%%$'\n'*}" "execlag: the calibration gate did not get ready in 1 s (marking the folders below /w)"
}

@test "gate_watch: a gate whose heartbeat stops moving is named in gate.stuck and the shell gets USR1" {
	[ -r /proc/self/stat ] || skip "gate_state reads /proc (the gate is Linux's)"
	fake_gate 'while [ $# -gt 0 ]; do [ "$1" != --ready-file ] || : >"$2"; shift; done; exec sleep 30'
	# (the watchdog's six looks half a second apart: the stand-in's half
	# seconds; the gate is stopped, its heartbeat cannot move between them)
	quick_sleep
	PATH="$T/qs:$PATH" QUICK_SLEEP=0.5 in_gate_lib 'gate_start "$T" "$T/gate.log" 5 "" --heartbeat "$T/gate.beat"
		kill -STOP "$gate_pid"
		trap "echo USR1; got=1" USR1
		got=0
		gate_watch "$T" &
		gate_watchdog=$!
		n=0
		while [ "$got" = 0 ] && [ "$n" -lt 100 ]; do sleep 0.1; n=$((n + 1)); done
		gate_stop
		echo "watchdog [$gate_watchdog] gate [$gate_pid]"'
	assert_success
	assert_line --index 0 USR1
	assert_line --index 1 "watchdog [] gate []"
	grep -q '^the calibration gate (pid [0-9]*) stopped answering: its heartbeat has not moved for 3 s, stopped (state T); ' "$T/gate.stuck"
}

# ---- findrun: run_find, run_newest -------------------------------------------------------

# a_run NAME [LINE...]: a finished run folder in $T/results, conditions LINEs
a_run() {
	local d="$T/results/$1"
	shift
	mkdir -p "$d"
	echo '{}' >"$d/run.json"
	printf '%s\n' "$@" >"$d/conditions.txt"
}

@test "run_find: a path, a run's id, a tag's newest run, else the name; run_newest: the newest finished run" {
	a_run 20260101T000000Z-aaaaaa-fast run.tag=fast
	a_run 20260102T000000Z-bbbbbb-fast run.tag=fast
	mkdir -p "$T/results/20260103T000000Z-cccccc-fast" "$T/results/.20260104T000000Z-dddddd-fast.partial"
	mkdir -p "$T/results/20260105T000000Z-eeeeee-m1"
	echo '{}' >"$T/results/20260105T000000Z-eeeeee-m1/measure.json"
	run_both sh -c '. "$1/scripts/lib/home"; . "$1/scripts/lib/conditions"; . "$1/scripts/lib/findrun"
		for n in fast m1 20260101T000000Z-aaaaaa-fast none "a b" -x ../x "~/r"; do
			run_find "$n" "$2"; echo "$run_found"
		done' _ "$ROOT" "$T/results"
	assert_success
	assert_equal "$output" "$T/results/20260102T000000Z-bbbbbb-fast
$T/results/20260105T000000Z-eeeeee-m1
$T/results/20260101T000000Z-aaaaaa-fast
none
a b
-x
../x
$HOME/r"
	# (was: "run_newest: the newest finished run that is not a measure's probe, or nothing")
	# (a results folder of its own: run_find's runs gone)
	rm -rf "$T/results"
	run_both sh -c '. "$1/scripts/lib/home"; . "$1/scripts/lib/conditions"; . "$1/scripts/lib/findrun"
		run_newest "$2"; echo "[$run_found]"' _ "$ROOT" "$T/results"
	assert_output "[]"
	a_run 20260101T000000Z-aaaaaa run.tag=none
	a_run 20260102T000000Z-bbbbbb-probe run.tag=probe run.role=measure-probe
	a_run 20260103T000000Z-cccccc-old run.tag=probe
	mkdir -p "$T/results/20260104T000000Z-dddddd" "$T/results/.20260105T000000Z-eeeeee.partial"
	echo '{}' >"$T/results/.20260105T000000Z-eeeeee.partial/run.json"
	run_both sh -c '. "$1/scripts/lib/home"; . "$1/scripts/lib/conditions"; . "$1/scripts/lib/findrun"
		run_newest "$2"; echo "[$run_found]"' _ "$ROOT" "$T/results"
	assert_output "[$T/results/20260101T000000Z-aaaaaa]"
	# scripts/findrun says the same
	RESULTS="$T/results" run_both -0 sh "$ROOT/scripts/findrun" --newest
	assert_output "$T/results/20260101T000000Z-aaaaaa"
}

# ---- every script sources the one copy ----------------------------------------------------

# marked_kit: a copy of the kit's scripts and cases in $K whose library
# marks each routine: fail's line begins "LIB", and gate_parse, run_child,
# run_find and run_newest write "SCRIPT ROUTINE" to $SHLIB_TRACE when called
marked_kit() {
	K="$T/kit"
	mkdir -p "$K"
	cp -R "$ROOT/scripts" "$ROOT/cases" "$K/"
	cp "$ROOT/Makefile" "$K/"
	local f r
	for f in check:fail gate:gate_parse child:run_child findrun:run_find findrun:run_newest; do
		r=${f#*:}
		f="$K/scripts/lib/${f%%:*}"
		sed "s/^$r() {/shlib_$r() {/" "$f" >"$f.new"
		mv "$f.new" "$f"
		if [ "$r" = fail ]; then
			printf '%s() { printf "LIB %%s: %%s\\n" "${prog:-execlag}" "$*" >&2; exit 2; }\n' "$r" >>"$f"
		else
			printf '%s() { printf "%%s %s\\n" "${0##*/}" >>"$SHLIB_TRACE"; shlib_%s "$@"; }\n' "$r" "$r" "$r" >>"$f"
		fi
	done
	export EXECLAG_BIN="$ROOT/micro/bin" SHLIB_TRACE="$T/trace"
	: >"$SHLIB_TRACE"
}

@test "scripts refuse bad input via the library (fail, gate_parse), run steps by run_child, find runs by it" {
	marked_kit
	local cmd want
	while IFS='|' read -r cmd want; do
		eval "set -- $cmd"
		run_sep "$@"
		assert_equal "$cmd: $status" "$cmd: 2"
		assert_equal "$cmd: $stderr" "$cmd: LIB $want"
	done <<EOF
sh "$K/scripts/repro" --count x|execlag: COUNT 'x' is not a whole number from 1 to 100000
sh "$K/scripts/repro" --gate latency=x|execlag: GATE latency 'x' is not a number of ms from 0 to 60000 (e.g. 20 or 0.5)
sh "$K/scripts/measure" --gate latency=x -- true|execlag: GATE latency 'x' is not a number of ms from 0 to 60000 (e.g. 20 or 0.5)
sh "$K/scripts/measure" --probe 2 -- true|execlag: PROBE '2' is not 0 or 1
sh "$K/scripts/doctor" --bogus|execlag: unknown option '--bogus' (see --help)
sh "$K/scripts/feedback" --run|feedback: --run needs a folder (see --help)
sh "$K/scripts/probe/hfcheck" --runs|hfcheck: --runs needs a value (see --help)
sh "$K/scripts/check" --run|check: --run needs a folder
sh "$K/scripts/probe/services" record x during|services: label 'during' is not before or after
sh "$K/scripts/probe/logs" show|logs: say excerpt (try --help)
sh "$K/scripts/probe/logcount" --start|logcount: --start needs a value (try --help)
EOF
	# doctor's probe is repro's: its bad GATE is repro's one line
	run_sep sh "$K/scripts/doctor" --gate latency=x
	assert_equal "$status" 2
	assert_equal "$stderr" "LIB execlag: GATE latency 'x' is not a number of ms from 0 to 60000 (e.g. 20 or 0.5)"
	# (sort -u's lines joined by the shell, as tr '\n' ' ' joined them)
	run_both sort -u "$SHLIB_TRACE"
	local joined
	printf -v joined '%s ' "${lines[@]}"
	assert_equal "$joined" "measure gate_parse repro gate_parse "
	# a valid GATE off Linux: repro and measure name the system, asked
	# before the gate's settings are read (a uname that answers Darwin)
	mkdir -p "$T/darwin"
	printf '#!/bin/sh\ncase "$1" in -m) echo arm64 ;; -sm) echo "Darwin arm64" ;; *) echo Darwin ;; esac\n' >"$T/darwin/uname"
	chmod +x "$T/darwin/uname"
	run_sep env PATH="$T/darwin:$PATH" sh "$K/scripts/repro" --gate 'latency=20 workers=1 key=inode' --cases exe
	assert_equal "$status" 2
	assert_equal "$stderr" "LIB execlag: the calibration gate needs Linux (fanotify); this is Darwin"
	run_sep env PATH="$T/darwin:$PATH" sh "$K/scripts/measure" --gate 'latency=20 workers=1 key=inode' -- true
	assert_equal "$status" 2
	assert_equal "$stderr" "LIB execlag: the calibration gate needs Linux (fanotify); this is Darwin"
	# (was: "their long steps go through the library's run_child, and runs are found by its finder")
	# (the same marked kit, its trace empty again)
	: >"$SHLIB_TRACE"
	mkdir -p "$T/p" "$T/results" "$T/tmp"
	# measure: the probe (repro, simulated) and its run found; repro's steps
	(cd "$T/p" && RESULTS="$T/results" TMPDIR="$T/tmp" sh "$K/scripts/measure" \
		--launcher 'sim:latency=150 workers=1 key=inode seed=7' -- true) >"$T/m.out" 2>"$T/m.err" ||
		fail "measure: $(cat "$T/m.err")"
	# check and compare find a run by its tag, feedback the newest (check:
	# one exercise's patterns, the run found before them; the seven pattern
	# files of the whole check are tests/check.bats', some 3 s of CPU)
	run_both sh "$K/scripts/check" --run probe --exercise 1
	RESULTS="$T/results" run_both sh "$K/scripts/compare" probe probe
	RESULTS="$T/results" run_both sh "$K/scripts/feedback"
	# hfcheck: mkfresh through run_child before hyperfine is asked anything
	# (the script case: its programs are written, not compiled)
	mkdir -p "$T/hf/bin" "$T/w" "$T/raw"
	printf '#!/bin/sh\n[ "${1:-}" = --version ] && echo "hyperfine 1.19.0"\nexit 1\n' >"$T/hf/bin/hyperfine"
	chmod +x "$T/hf/bin/hyperfine"
	PATH="$T/hf/bin:$PATH" run_both sh "$K/scripts/probe/hfcheck" --dir "$T/w" --raw "$T/raw" --cases script --runs 3
	assert_line hyperfine.status=failed
	run_both sort -u "$SHLIB_TRACE"
	assert_line "measure run_child"
	assert_line "measure run_find"
	assert_line "repro run_child"
	assert_line "check run_find"
	assert_line "compare run_find"
	assert_line "feedback run_newest"
	assert_line "hfcheck run_child"
}

# ---- logwindow: is_time, next_second ----------------------------------------------------

@test "logwindow: is_time, window_ok, next_second (to the year, Gregorian leap days); the probes use it" {
	lib logwindow
	is_time "2026-12-04 19:59:59" || fail "is_time refused a time"
	local v
	for v in "" "2026-12-04" "2026-12-04T19:59:59" "2026-12-04 19:59" "2026-12-04 19:59:60x" "26-12-04 19:59:59"; do
		! is_time "$v" || fail "is_time took '$v'"
	done
	next_second "2026-12-04 19:59:58"
	assert_equal "$lw_next" "2026-12-04 19:59:59"
	next_second "2026-12-31 23:59:59"
	assert_equal "$lw_next" "2027-01-01 00:00:00"
	next_second "2024-02-28 23:59:59"
	assert_equal "$lw_next" "2024-02-29 00:00:00"
	next_second "2023-02-28 23:59:59"
	assert_equal "$lw_next" "2023-03-01 00:00:00"
	next_second "1900-02-28 23:59:59"
	assert_equal "$lw_next" "1900-03-01 00:00:00"
	next_second "2000-02-28 23:59:59"
	assert_equal "$lw_next" "2000-02-29 00:00:00"
	next_second "2026-04-30 23:59:59"
	assert_equal "$lw_next" "2026-05-01 00:00:00"
	window_ok "2026-12-04 10:00:00" "2026-12-04 10:00:00" || fail "an instant refused: $window_why"
	! window_ok "2026-12-04 10:00:01" "2026-12-04 10:00:00" || fail "a window ending first taken"
	assert_equal "$window_why" "--start '2026-12-04 10:00:01' is after --end '2026-12-04 10:00:00'"
	! window_ok "2026-12-04 10:00" "2026-12-04 10:00:00" || fail "a short start taken"
	assert_equal "$window_why" "--start '2026-12-04 10:00' is not YYYY-MM-DD HH:MM:SS"
	! window_ok "2026-12-04 10:00:00" "x" || fail "a bad end taken"
	assert_equal "$window_why" "--end 'x' is not YYYY-MM-DD HH:MM:SS"
	# and both probes refuse through it, in their own names
	run_sep sh "$ROOT/scripts/probe/logs" excerpt --start "2026-12-04 10:00:01" \
		--end "2026-12-04 10:00:00" --out "$T/x"
	assert_equal "$status: $stderr" "2: logs: --start '2026-12-04 10:00:01' is after --end '2026-12-04 10:00:00'"
	run_sep sh "$ROOT/scripts/probe/logcount" --start x --end "2026-12-04 10:00:00" --out "$T/y"
	assert_equal "$status: $stderr" "2: logcount: --start 'x' is not YYYY-MM-DD HH:MM:SS"
}
