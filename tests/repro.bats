#!/usr/bin/env bats
# scripts/repro: refusing bad input, cleaning up after interrupts and
# after runs that were killed.  The quick profile's verdicts on this
# (Linux: control) machine are make test-live's (tests/live/repro.bats).

# bats file_tags=heavy
load test_helper/common-setup
load test_helper/quickrun
load test_helper/shellread

setup_file() {
	interrupt_tests_alone
	make -C "$BATS_TEST_DIRNAME/.." -s build >/dev/null
}

setup() {
	_common_setup
	_run_folders_setup
}

# The last run was refused: exit 2, one stderr line, nothing left behind
# (no work file, no result, no run.json among them).  The shell's own
# tests, no process: a refusal is cheap, and these checks were most of
# what its test cost (a process is 5 ms here).
assert_refused_clean() {
	# (the status and stderr named: the refusals run untraced, a failure
	# reported at the test's one call)
	[ "$status" = 2 ] || fail "exit $status, not 2: $stderr"
	[[ "$stderr" != *$'\n'* ]] || fail "more than one line on stderr: $stderr"
	assert_empty "$D/tmp" "$D/results"
}

# start_long_run: a long repro in the background, its pid in $pid, once it
# has made fresh artifacts (job control on, so the background shell does
# not start with SIGINT ignored, as POSIX asynchronous lists would)
start_long_run() {
	set -m
	sh "$ROOT/scripts/repro" --cases exe,script --count 200 >"$D/out" 2>"$D/err" &
	pid=$!
	set +m
	# (the files counted by the shell, by globs of the levels a run writes
	# at: its owner file, its work folder's artifacts; no find a look)
	local n f
	i=0
	while [ $i -lt 200 ]; do
		n=0
		shopt -s dotglob nullglob
		for f in "$D/tmp"/* "$D/tmp"/*/* "$D/tmp"/*/*/* "$D/tmp"/*/*/*/*; do
			[ ! -f "$f" ] || [ -L "$f" ] || n=$((n + 1))
		done
		shopt -u dotglob nullglob
		[ "$n" -lt 3 ] || break
		sleep 0.05
		i=$((i + 1))
	done
}

# assert_nothing_left: no work folder, no result of any kind, no instrument
# still running
assert_nothing_left() {
	assert_empty "$D/tmp" "$D/results"
	run_both pgrep -f "$D/tmp"
	assert_failure
}

@test "refused, one line, exit 2, nothing left: a case, THREADS, COUNT, threads > artifacts, twice, SIZE" {
	# some thirty refusals, each a run of repro and the checks of its
	# refusal: without bats' debug trap, a failure said at this line with
	# the value and the stderr that failed
	kit_untraced refusals
}

# refusals: the body of the test above
refusals() {
	# (was: "an unknown case is refused with one line and exit 2")
	run_sep sh "$ROOT/scripts/repro" --cases exe,nosuchcase
	assert_refused_clean
	[[ "$stderr" == *"unknown case 'nosuchcase'"* ]] || fail "stderr: $stderr"
	# (was: "THREADS=0 and THREADS=abc are refused")
	for t in 0 abc -1 2x; do
		THREADS=$t run_sep sh "$ROOT/scripts/repro"
		assert_refused_clean
		[[ "$stderr" == *"THREADS"* ]] || fail "$t: stderr: $stderr"
	done
	# (was: "a count of 0, negative or absurd is refused")
	for c in 0 -3 1e9 1000000000 abc; do
		COUNT=$c run_sep sh "$ROOT/scripts/repro"
		assert_refused_clean
		[[ "$stderr" == *"COUNT"* ]] || fail "$c: stderr: $stderr"
	done
	# (was: "more threads than artifacts is refused")
	COUNT=6 THREADS=8 run_sep sh "$ROOT/scripts/repro"
	assert_refused_clean
	[[ "$stderr" == *"THREADS 8 exceeds COUNT 6"* ]] || fail "stderr: $stderr"
	# (was: "a thread count, case, class or gate setting given twice is refused up front")
	for args in "--threads 1,1" "--threads 2,1,02" "--cases exe,script,exe" "--classes all,all"; do
		# shellcheck disable=SC2086
		run_sep sh "$ROOT/scripts/repro" --cases exe $args
		assert_refused_clean
		[[ "$stderr" == *"twice"* ]] || fail "$args: $stderr"
	done
	THREADS=1,1 run_sep sh "$ROOT/scripts/repro" --cases exe
	assert_refused_clean
	assert_equal "$stderr" "execlag: THREADS names 1 twice"
	run_sep sh "$ROOT/scripts/repro" --gate "latency=1 workers=1 latency=2"
	assert_refused_clean
	assert_equal "$stderr" "execlag: GATE sets latency twice"
	# (was: "SIZE: a size that is not 0 to 64m, or one given twice, is refused; so is a bad GATE per_mb")
	for z in 65m 1g -1 abc 1.5m k 16k,,x 99999999999; do
		SIZE=$z run_sep sh "$ROOT/scripts/repro" --cases exe
		assert_refused_clean
		[[ "$stderr" == "execlag: SIZE '"* ]] || fail "$z: $stderr"
	done
	SIZE=16k,16384 run_sep sh "$ROOT/scripts/repro" --cases exe
	assert_refused_clean
	assert_equal "$stderr" "execlag: SIZE names 16384 twice"
	run_sep sh "$ROOT/scripts/repro" --gate "per_mb=-2"
	assert_refused_clean
	[[ "$stderr" == "execlag: GATE per_mb '-2' is not a number of ms"* ]] || fail "stderr: $stderr"
}

@test "SIZE: each size of a compiled case is a config of its own; scripts run once, unpadded" {
	# simulated: the configs, their names and the padding are repro's and
	# mkfresh's alike whatever launches (mkfresh --simulated pads as it
	# does for a real run), without 14 compiles and their launches
	SIZE=0,4K run_sep sh "$ROOT/scripts/repro" --cases exe,script --threads 1 --count 6 \
		--launcher 'sim:latency=0 seed=1'
	assert_success
	[[ "$output" == *"[2/3] exe T=1 class=all size=4k: making 6 fresh artifacts"* ]] || fail "$output"
	# (the run's one run.json, by a glob: no find)
	for j in "$D/results"/*/run.json; do :; done
	# (the three values by one jq, a line each)
	assert_equal "$(jq -r '.conditions["run.sizes"], ([.cases[] | {(.name): [.configs[].pad_bytes]}] | add | tojson),
		(.cases[] | select(.name == "exe") | .size_slopes[0].sizes)' "$j")" \
		"$(printf '%s\n' 0,4k '{"script":[0],"exe":[0,4096]}' 2)"
	raw=${j%/*}/raw
	[ -f "$raw/exe-t1-all-s4k.samples.tsv" ] && [ -f "$raw/exe-t1-all-s0.samples.tsv" ] &&
		[ -f "$raw/script-t1-all.samples.tsv" ] || fail "$(ls "$raw")"
	# (the lines grep '^pad' gives, by the shell)
	lines_from "$raw/exe-t1-all-s4k.manifest" pad
	assert_equal "$found" $'pad\t4096'
	lines_from "$raw/exe-t1-all-s4k.ref.manifest" pad
	assert_equal "$found" $'pad\t4096'
}

@test "a COUNT too small names COUNT and the rule, not THREADS; a bad TMPDIR: one line naming it and why" {
	# (was: "a COUNT too small for an interval names COUNT and the rule, not THREADS")
	# the rule's number as the method states it (launch --constants, what repro reads)
	min=$("$BIN/launch" --constants | sed -n 's/^min_pairs=//p')
	[ -n "$min" ] || fail "launch --constants states no min_pairs"
	for c in 1 $((min - 1)); do
		COUNT=$c run_sep sh "$ROOT/scripts/repro" --cases exe
		assert_refused_clean
		[[ "$stderr" == *"COUNT $c "* ]] || fail "$stderr"
		[[ "$stderr" == *"$min"*"MIN_PAIRS"* ]] || fail "$stderr"
		[[ "$stderr" != *THREADS* ]] || fail "$stderr"
	done
	# (was: "a bad TMPDIR gives the kit's one line only, naming TMPDIR and why")
	: >"$D/file"
	for t in "$D/nonexistent" "$D/file"; do
		TMPDIR=$t run_sep sh "$ROOT/scripts/repro" --cases exe --threads 1
		assert_equal "$status" 2
		assert_equal "$stderr" "execlag: TMPDIR '$t' is not a folder"
		assert_empty "$D/results"
	done
	if [ "$(id -u)" != 0 ]; then
		mkdir "$D/ro" && chmod 555 "$D/ro"
		TMPDIR=$D/ro run_sep sh "$ROOT/scripts/repro" --cases exe --threads 1
		assert_equal "$status" 2
		assert_equal "$stderr" "execlag: TMPDIR '$D/ro' is not writable"
	fi
}

@test "CC may hold arguments, as for make; a CC that does not exist is still no C compiler" {
	# simulated, with the run's own templates (EXECLAG_TEMPLATES empty): its
	# one compile of the exe's template is CC's, split as for a real run
	# (mkfresh's compile), not 7 compiles
	EXECLAG_TEMPLATES= CC='cc -O0' run_sep sh "$ROOT/scripts/repro" --cases exe --threads 1 --count 6 \
		--launcher 'sim:latency=0 seed=1'
	assert_success
	[[ "$stderr" != *"no C compiler"* ]] || fail "stderr: $stderr"
	assert_equal "$(find "$D/results" -name run.json | wc -l | tr -d ' ')" 1
	CC='/nonexistent/cc -O0' run_sep sh "$ROOT/scripts/repro" --cases exe
	assert_equal "$status" 2
	assert_equal "$stderr" "execlag: no C compiler: '/nonexistent/cc -O0' not found (install Xcode command line tools or build-essential, or set CC)"
}

@test "refused: an unwritable results folder, no C compiler, an unknown profile, class or option; via make" {
	# (was: "an unwritable results folder is refused")
	: >"$D/file"
	RESULTS="$D/file/results" run_sep sh "$ROOT/scripts/repro" --cases exe
	assert_equal "$status" 2
	[[ "$stderr" != *$'\n'* ]] || fail "more than one line on stderr: $stderr"
	[[ "$stderr" == *"not writable"* ]] || fail "stderr: $stderr"
	assert_empty "$D/tmp"
	# (was: "no C compiler is refused with one line")
	CC=/nonexistent/cc run_sep sh "$ROOT/scripts/repro" --cases exe
	assert_refused_clean
	[[ "$stderr" == *"no C compiler"* ]] || fail "stderr: $stderr"
	# (was: "an unknown profile, class or option is refused")
	run_sep sh "$ROOT/scripts/repro" --profile huge
	assert_refused_clean
	run_sep sh "$ROOT/scripts/repro" --classes X
	assert_refused_clean
	run_sep sh "$ROOT/scripts/repro" --frobnicate
	assert_refused_clean
	# (was: "make repro passes bad input through with exit status 2")
	run_sep make -s -C "$ROOT" repro THREADS=0
	assert_equal "$status" 2
	[[ "$stderr" == *"THREADS '0'"* ]] || fail "stderr: $stderr"
	assert_equal "$(find "$D/results" -name run.json)" ""
}

@test "an interrupt mid-run leaves no artifacts and no half-written result" {
	need_sigint
	start_long_run
	kill -INT "$pid"
	rc=0
	wait "$pid" || rc=$?
	assert_equal "$rc" 130
	assert_nothing_left
}

# (--count 6: the run's second line, the write that fails, comes after
# the first configuration's 6 artifacts, not after its sequential looks;
# the script case first: its artifacts are written, not compiled)
@test "a closed output (| head -1) ends the run: non-zero, nothing left, no instrument; SIGPIPE ignored too" {
	# (was: "a closed output (| head -1) ends the run: non-zero, nothing left, no instrument running")
	# shellcheck disable=SC2016 # (that bash expands them)
	run_both bash -c 'sh "$ROOT/scripts/repro" --cases script,exe --count 6 | head -1; echo "repro=${PIPESTATUS[0]}"'
	assert_line --index 0 --partial "execlag: [1/"
	assert_line --regexp '^repro=[1-9][0-9]*$'
	refute_line "repro=0"
	assert_nothing_left
	# (was: "a closed output with SIGPIPE ignored: the write error ends the run cleanly too")
	export D
	# a parent that ignores SIGPIPE hands it on ignored: the shell cannot
	# trap it, so the failed write itself must end the run
	# shellcheck disable=SC2016 # (that bash expands them)
	run_both bash -c 'trap "" PIPE; sh "$ROOT/scripts/repro" --cases script,exe --count 6 2>"$D/err" | head -1; echo "repro=${PIPESTATUS[0]}"'
	assert_line --index 0 --partial "execlag: [1/"
	refute_line "repro=0"
	# it stopped at the first failed write, saying so, not at the end
	# (grep -q's and grep -c -e's answers, by the shell)
	has_text "$D/err" "execlag: cannot write to the standard output" || fail "stderr: no write error"
	count_fixed "I/O error" "$D/err" "hfcheck:" "analyze:"
	assert_equal "$found" 0
	assert_nothing_left
}

# A short run, for the tests of what a run removes before it starts: the
# script case, whose run writes the same files as a compiled case's
# without a compile per artifact (CC and SIZE have tests of their own),
# simulated: what it removes, and says, is done before anything launches.
# small_real_run: the same, launched, for make feedback, which refuses a
# simulated run; beside it a hyperfine that gives no version, so that the
# cross-check is skipped before it makes anything (hfcheck's tests have it).
small_run() {
	run_sep sh "$ROOT/scripts/repro" --cases script --threads 1 --count 6 \
		--launcher 'sim:latency=0 seed=1'
}
small_real_run() {
	no_hyperfine
	PATH="$D/nohf:$PATH" run_sep sh "$ROOT/scripts/repro" --cases script --threads 1 --count 6
}
no_hyperfine() {
	mkdir -p "$D/nohf"
	printf '#!/bin/sh\nexit 1\n' >"$D/nohf/hyperfine"
	chmod +x "$D/nohf/hyperfine"
}

# start_of PID: start, the start time as scripts/repro's started() reads it
# (the stat file read by the shell, and no $( ) around the call: no process
# on Linux)
start_of() {
	local st
	if [ -r "/proc/$1/stat" ]; then
		read -r st <"/proc/$1/stat"
		set -- ${st##*) }
		start="boot+${20}"
	else
		start="utc $(LC_ALL=C TZ=UTC0 ps -o lstart= -p "$1")"
	fi
}

# owned DIR PID START: DIR made as a run of process PID started at START made it
owned() {
	mkdir -p "$1"
	printf 'execlag-run-owner\n%s\n%s\n' "$2" "$3" >"$1/.execlag-owner"
}

@test "a run killed with SIGKILL leaves its folders; the next run removes them and says so" {
	start_long_run
	# the whole group, as an out-of-memory kill or a power cut would
	kill -KILL -- "-$pid"
	wait "$pid" || true
	# what the kill reached last may take a moment to go
	i=0
	while pgrep -f "$D/tmp" >/dev/null && [ $i -lt 200 ]; do
		sleep 0.05
		i=$((i + 1))
	done
	# (what is left, by globs: no find; a line each, as find would list them)
	local left f
	shopt -s nullglob
	left_tmp=""
	for f in "$D/tmp"/execlag.*; do left_tmp=${left_tmp:+$left_tmp$'\n'}$f; done
	left_partial=""
	for f in "$D/results"/.*.partial; do left_partial=${left_partial:+$left_partial$'\n'}$f; done
	shopt -u nullglob
	# (an assertion a line: under set -e a && list asserts only its last)
	[ -n "$left_tmp" ]
	[ -n "$left_partial" ]
	small_run
	assert_success
	[[ "$stderr" == *"removed the leftovers of an ended run (process $pid is gone): $left_partial"* ]] || fail "stderr: $stderr"
	[[ "$stderr" == *"removed the leftovers of an ended run (process $pid is gone): $left_tmp"* ]] || fail "stderr: $stderr"
	[ ! -e "$left_tmp" ]
	[ ! -e "$left_partial" ]
	# and the new run is whole, without the owner file
	shopt -s dotglob nullglob
	left=("$D/results"/*)
	shopt -u dotglob nullglob
	assert_equal "${#left[@]}" 1
	assert_equal "$(find "$D/results" -name .execlag-owner)" ""
	assert_empty "$D/tmp"
}

@test "the folders of a live run, a reused pid's, foreign ones: left alone, also under another TZ, locale" {
	# (was: "the folders of a live run, a reused pid's and foreign ones are left alone")
	sleep 1000 &
	live=$!
	start_of "$live"
	gone=$(sh -c 'echo $$')
	owned "$D/results/.20260101T000000Z-aaaaaa.partial" "$live" "$start"
	owned "$D/tmp/execlag.LiVe01" "$live" "$start"
	# the live pid with another start time: a reused pid, its run is gone
	owned "$D/results/.20260101T000000Z-bbbbbb.partial" "$live" "Thu Jan  1 00:00:00 1970"
	# foreign: our name without our owner file, our owner file under another name
	mkdir -p "$D/results/.20260101T000000Z-cccccc.partial" "$D/tmp/execlag.NotOur"
	owned "$D/tmp/execlag.longer-name" "$gone" "x"
	owned "$D/results/.notarun.partial" "$gone" "x"
	small_run
	kill "$live"
	assert_success
	[ -d "$D/results/.20260101T000000Z-aaaaaa.partial" ]
	[ -d "$D/tmp/execlag.LiVe01" ]
	[ ! -e "$D/results/.20260101T000000Z-bbbbbb.partial" ]
	[[ "$stderr" == *"(process $live is gone): $D/results/.20260101T000000Z-bbbbbb.partial"* ]] || fail "stderr: $stderr"
	[ -d "$D/results/.20260101T000000Z-cccccc.partial" ]
	[ -d "$D/tmp/execlag.NotOur" ]
	[ -d "$D/tmp/execlag.longer-name" ]
	[ -d "$D/results/.notarun.partial" ]
	# (the lines that say so counted by the shell, not by a grep)
	local l n=0
	while IFS= read -r l; do
		[[ "$l" != *'removed the leftovers'* ]] || n=$((n + 1))
	done <<<"$stderr"
	assert_equal "$n" 1
	# (was: "a live run's folders are kept by a run started in another time zone and locale")
	# (empty folders, as that test started with: the live run above is gone now)
	rm -rf "$D/tmp" "$D/results" && mkdir "$D/tmp" "$D/results"
	sleep 1000 &
	live=$!
	start_of "$live"
	owned "$D/tmp/execlag.LiVe02" "$live" "$start"
	# ps prints its start time in the local zone: a time read under
	# another TZ would differ from the one recorded and make a live run
	# look like a reused pid, whose work folder would then be removed
	TZ=America/New_York LC_ALL=C small_run
	kill "$live"
	assert_success
	[ -d "$D/tmp/execlag.LiVe02" ]
	[[ "$stderr" != *"removed the leftovers"* ]] || fail "$stderr"
}

@test "check, aggregate and feedback go on ignoring a .partial, even one holding a run.json" {
	small_real_run
	assert_success
	real=$(find "$D/results" -mindepth 1 -maxdepth 1 -type d ! -name '.*')
	# a later, unfinished run, with a run.json already written
	p="$D/results/.29991231T235959Z-ffffff.partial"
	cp -R "$real" "$p"
	jq '.run_id = "unfinished"' "$real/run.json" >"$p/run.json"
	owned "$p" "$$" "$(ps -o lstart= -p $$)"
	# one exercise's checks: the run is found before the exercise counts,
	# and the first line names it either way (the seven pattern files of
	# the whole check are tests/check.bats'; some 3 s of CPU here)
	run_both sh "$ROOT/scripts/check" --exercise 1
	assert_output --partial "execlag check: $real (exercise 1"
	run_both -0 "$BIN/aggregate" --dir "$D/results" --out "$D/agg"
	# (the lines grep -c counts, by the shell: none unfinished, the run's some)
	count_fixed unfinished "$D/agg.md"
	assert_equal "$found" 0
	count_fixed "${real##*/}" "$D/agg.md"
	[ "$found" -gt 0 ] || fail "$D/agg.md does not name ${real##*/}"
	run_both -0 sh "$ROOT/scripts/feedback" --results "$D/results" </dev/null
	[ -d "$real/feedback" ]
	[ ! -e "$p/feedback" ]
}

@test "date or od failing (out of processes) ends the run before anything is made, not with a truncated id" {
	mkdir -p "$D/bin"
	for tool in date od; do
		rm -f "$D/bin"/*
		printf '#!/bin/sh\nexit 1\n' >"$D/bin/$tool"
		chmod +x "$D/bin/$tool"
		PATH="$D/bin:$PATH" run_sep sh "$ROOT/scripts/repro" --cases exe --threads 1 --count 6
		assert_equal "$status" 1
		assert_equal "$stderr" "execlag: cannot start a run: date, od or ps failed (out of processes?)"
		assert_empty "$D/tmp" "$D/results"
	done
}

@test "a run made under sudo belongs to the user who asked: make feedback works for them without root" {
	[ "$(id -u)" = 0 ] || skip "needs root (a run as sudo makes it)"
	command -v setpriv >/dev/null || skip "no setpriv here to act as another user"
	local p=$D
	# the other user must reach this test's folder
	while [ "$p" != / ]; do
		chmod o+x "$p"
		# (dirname's, by the shell)
		p=${p%/*}
		p=${p:-/}
	done
	rm -rf "$D/results"
	no_hyperfine
	PATH="$D/nohf:$PATH" SUDO_UID=65534 SUDO_GID=65534 run_sep sh "$ROOT/scripts/repro" --cases script --threads 1 --count 6
	assert_success
	r=$(find "$D/results" -mindepth 1 -maxdepth 1 -type d)
	[ -n "$r" ] || fail "no run: $stderr"
	# the run and the results folder this run made are the user's, every file
	assert_equal "$(find "$D/results" ! -uid 65534)" ""
	assert_equal "$(find "$D/results" ! -gid 65534)" ""
	mkdir -p "$D/utmp" && chown 65534:65534 "$D/utmp"
	# the user runs the kit they cloned: here a copy of what feedback runs,
	# in this test's folder, which they can reach (this clone may sit in a
	# folder only root can enter, such as one mktemp -d made: run as them,
	# sh could not even open scripts/feedback there, exit 2)
	mkdir -p "$D/kit/micro/bin"
	cp -R "$ROOT/scripts" "$ROOT/README.md" "$D/kit/"
	cp "$BIN/fbtext" "$BIN/redact" "$D/kit/micro/bin/"
	run_sep setpriv --reuid=65534 --regid=65534 --clear-groups \
		env HOME="$D/utmp" TMPDIR="$D/utmp" sh "$D/kit/scripts/feedback" --run "$r"
	assert_success
	[ -s "$r/feedback/feedback.txt" ] || fail "no feedback.txt: $stderr"
	# with a root or malformed name of sudo's, the run stays root's:
	# simulated runs (a third of a real one's CPU), as the kit decides whom
	# a finished run belongs to alike whatever launched it.  (Without
	# sudo's names is the malformed one's path, a SUDO_UID that is no
	# number: every other run of the suite as root is one.)
	for ids in "0:0" "65534x:65534"; do
		rm -rf "$D/results"
		SUDO_UID=${ids%%:*} SUDO_GID=${ids#*:} run_sep sh "$ROOT/scripts/repro" --cases script --threads 1 --count 6 \
			--launcher 'sim:latency=0 seed=1'
		assert_success
		assert_equal "$(find "$D/results" ! -uid 0)" ""
	done
}
