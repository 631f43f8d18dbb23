#!/usr/bin/env bats
# docs/workshop.md, followed on Linux under the calibration gate: the
# commands are taken from the guide itself, and each `make check
# EXERCISE=N` must report what the guide says it reports.  The runs are
# kept small (fewer cases and threads); they land in one results
# folder of this file's own, as an attendee's would in results/.
# The checks that need no gate are make test's (tests/workshop.bats).

load ../test_helper/common-setup

# guide_line TEXT: the first line of the guide that starts with TEXT,
# without a trailing "   # comment" and without "sudo" (the tests run as
# root wherever the gate runs at all).
guide_line() {
	local line
	line=$(awk -v t="$1" 'index($0, t) == 1 { print; exit }' "$ROOT/docs/workshop.md")
	[ -n "$line" ] || { echo "docs/workshop.md has no line starting with: $1" >&2; return 1; }
	printf '%s\n' "$line" | sed 's/[[:space:]][[:space:]]*#[^!].*$//; s/^sudo //; s/\([;&|] *\)sudo /\1/g'
}

# guide TEXT [VAR=VALUE…]: run the guide's make command, with more
# variables (for speed) and this file's results folder.
guide() {
	local text=$1 cmd
	shift
	cmd=$(guide_line "$text") || return 1
	(cd "$ROOT" && eval "$cmd -s --no-print-directory RESULTS='$R' $*")
}

newest_run() { ls -d "$R"/*/ | sort | tail -n 1; }

# repro_step NAME TEXT [VAR=VALUE…]: the guide's repro command; the run it
# made is remembered as NAME.
repro_step() {
	local name=$1
	shift
	printf '%s\n' "$@" >"$STEPS/$name.args"
	guide "$@" >"$STEPS/$name.out" 2>&1 3>&- || { cat "$STEPS/$name.out" >&2; return 1; }
	newest_run >"$STEPS/$name.run"
}

# redo_step NAME [VAR=VALUE…]: the same repro command again, as a new
# run; later variables override the step's own (make takes the last).
redo_step() {
	local name=$1 args=() line
	shift
	while IFS= read -r line; do args+=("$line"); done <"$STEPS/$name.args"
	repro_step "$name" "${args[@]}" "$@"
}

step_run() { cat "$STEPS/$1.run"; }

setup_file() {
	_common_setup
	gate_probe
	export R="$BATS_FILE_TMPDIR/results" STEPS="$BATS_FILE_TMPDIR/steps"
	mkdir -p "$R" "$STEPS"
	[ -z "$GATE_SKIP" ] || return 0
	make -C "$ROOT" -s build >/dev/null
	g="sudo make repro GATE='latency=20 workers=1 key=inode'"
	# Every run an attendee makes in exercises 1-6, in the guide's order.
	repro_step ex1 "$g CASES=script THREADS=1"
	repro_step ex2 "$g TAG=ex2" CASES=script,script-via-sh,exe,exe-copy,exe-hardlink,exe-rewrite COUNT=20
	repro_step ex3 "sudo make repro GATE='latency=20 workers=1 key=path' CASES=exe,exe-hardlink" COUNT=40
	repro_step ex4 "sudo make repro GATE='latency=20 workers=4 key=inode' CASES=exe THREADS=1,4"
	repro_step ex6 "sudo make repro GATE='latency=20 workers=1 key=inode exempt=1' TAG=ex6" CASES=exe,script COUNT=20
}

setup() {
	_common_setup
	PATH=$(path_without_bats_libexec) # the nested make check finds the outer bats
}

need_gate() { [ -z "$GATE_SKIP" ] || skip "$GATE_SKIP"; }

# check N [RUN]: the guide's check of exercise N, on RUN (default: the
# newest run, as for an attendee who just made it).
check() {
	local cmd
	cmd=$(guide_line "make check EXERCISE=$1") || return 1
	run bash -c "cd '$ROOT' && $cmd -s --no-print-directory RESULTS='$R' ${2:+RUN='$2'}" 3>&-
	printf '%s\n' "$output" | sed 's/^/# /' >&3
}

# check_step N NAME: check N on step NAME's run.  A shared machine under
# load can leave a verdict inconclusive (a launch delayed by milliseconds
# in one pass); then the attendee's remedy is applied once: measuring
# again, with the launch count the check advises ("make repro COUNT=40")
# where it advises one, and the check is judged on the new run.
check_step() {
	local more
	check "$1" "$(step_run "$2")"
	if [ "$status" -ne 0 ] && printf '%s\n' "$output" | grep -q inconclusive; then
		more=$(printf '%s\n' "$output" | sed -n 's/.*make repro \(COUNT=[0-9][0-9]*\).*/\1/p' | head -n 1)
		echo "# a verdict was inconclusive on this busy machine: step $2 measured again, once${more:+, with $more}" >&3
		redo_step "$2" $more
		check "$1" "$(step_run "$2")"
	fi
}

@test "exercise 1: the guide's one-liner, under the gate, runs a fresh script slower the first time" {
	local w="$BATS_TEST_TMPDIR/ws" start line pid times first second
	need_gate
	start=$(guide_line "mkdir -p /tmp/execlag-ws && sudo micro/bin/gate")
	line=$(guide_line "rm -f /tmp/execlag-ws/test.sh;")
	start=${start//\/tmp\/execlag-ws/$w}
	line=${line//\/tmp\/execlag-ws/$w}
	# the guide's second terminal: the gate in the background here
	start=${start/micro\/bin\/gate/exec micro\/bin\/gate}
	(cd "$ROOT" && eval "$start --ready-file '$w.ready'") >"$w.out" 2>&1 3>&- &
	pid=$!
	for _ in $(seq 1 100); do [ -e "$w.ready" ] && break; sleep 0.05; done
	[ -e "$w.ready" ] || { kill -TERM "$pid" 2>/dev/null || true; fail "the gate did not get ready: $(cat "$w.out")"; }
	times=$(TIMEFORMAT=%R; eval "$line" 2>&1 >/dev/null)
	kill -TERM "$pid"
	for _ in $(seq 1 100); do kill -0 "$pid" 2>/dev/null || break; sleep 0.05; done
	grep -q 'gate: ready' "$w.out"
	first=$(printf '%s\n' "$times" | sed -n 1p)
	second=$(printf '%s\n' "$times" | sed -n 2p)
	echo "# one-liner under a 200 ms gate: first ${first} s, second ${second} s" >&3
	awk -v a="$first" -v b="$second" 'BEGIN { exit !(a - b >= 0.15) }'
}

@test "exercise 1: make check EXERCISE=1 says the new script's penalty holds" {
	need_gate
	check_step 1 ex1
	assert_success
	assert_output --regexp 'E1 new script +holds'
	assert_output --partial 'expected: slowdown'
	assert_output --partial '1 hold, 0 do not hold, 0 not applicable'
}

@test "exercise 2: make check EXERCISE=2 says P1 holds and every case is decided" {
	need_gate
	local c
	check_step 2 ex2
	assert_output --regexp 'P1 fresh penalty +holds'
	for c in exe exe-copy exe-rewrite script; do
		assert_line --regexp "^ +$c: penalty .*, slowdown\$"
	done
	printf '%s\n' "$output" >"$BATS_TEST_TMPDIR/e2.out"
	if [ "$status" -ne 0 ] && e2_undecided_only "$BATS_TEST_TMPDIR/e2.out"; then
		assert_output --partial '1 hold, 1 do not hold, 0 not applicable'
		return 0
	fi
	assert_success
	assert_output --regexp 'E2 verdicts +holds'
	assert_line --regexp '^ +exe-hardlink: penalty .*, none$'
	assert_line --regexp '^ +script-via-sh: penalty .*, none$'
	assert_output --partial 'exe-hardlink: penalty'
	assert_output --partial '2 hold, 0 do not hold, 0 not applicable'
}

@test "exercise 2: the report embeds both plots, and they exist beside it" {
	need_gate
	local r
	r=$(step_run ex2)
	grep -qF '![First vs repeat launch time per case, log time axis](plot-launch.svg)' "$r/report.md"
	grep -qF '](plot-scaling.svg)' "$r/report.md"
	[ -s "$r/plot-launch.svg" ]
	[ -s "$r/plot-scaling.svg" ]
}

@test "exercise 3: make check EXERCISE=3 says P2 and P3 hold, the key inferred being inode" {
	need_gate
	check_step 3 ex2
	assert_success
	assert_output --regexp 'P2 interpreter bypass +holds'
	assert_output --regexp 'P3 cache key +holds'
	assert_output --partial 'expected: inode, inferred: inode'
}

@test "exercise 3: with the gate keyed by path, the check finds path" {
	need_gate
	check_step 3 ex3
	assert_success
	assert_output --regexp 'P3 cache key +holds'
	assert_output --partial 'expected: path, inferred: path'
}

@test "exercise 4: make check EXERCISE=4 on exercise 2's run says the first pass is serialised" {
	need_gate
	local r
	r=$(step_run ex2)
	[ "$(jq -r '.conditions.ncpu' "$r/run.json")" -gt 1 ] || skip "one CPU: the quick profile measures T=1 only"
	check_step 4 ex2
	assert_success
	assert_output --regexp 'P4 serialisation +holds'
	assert_output --partial 'expected: serialised, measured: serialised'
}

@test "exercise 4: the guide reads the Scaling table as the report writes it (ratios to T=1, 1.00 there)" {
	need_gate
	local r e4
	r=$(step_run ex2)
	e4=$(awk '/^## Exercise 4 /,/^## Exercise 5 /' "$ROOT/docs/workshop.md" | tr '\n' ' ')
	[[ "$e4" == *"throughput at T threads divided by that at 1 thread"* ]]
	grep -q '^Throughput (launches per second over the pass) at T threads divided by the throughput at 1 thread' "$r/report.md"
	# the T=1 rows are 1.00 in both passes
	run awk -F' [|] ' '/^\| [a-z-]+ \| [A-Za-z]+ \| 1 \|/ { n++; if ($4 != "1.00" || $5 != "1.00 |") bad++ } END { exit !(n > 0 && !bad) }' "$r/report.md"
	assert_success
}

@test "exercise 4: with 4 gate workers and 4 threads, the check says parallel" {
	need_gate
	check_step 4 ex4
	assert_success
	assert_output --regexp 'P4 serialisation +holds'
	assert_output --partial 'expected: parallel, measured: parallel'
}

@test "exercise 5: make check EXERCISE=5 is not applicable and says why" {
	need_gate
	local classes
	classes=$(jq -r '.conditions.core_classes' "$(step_run ex2)/run.json")
	check 5 "$(step_run ex2)"
	assert_success
	assert_output --regexp 'E5 core classes +not applicable'
	if [ "$classes" = all ]; then
		assert_output --partial 'this machine has one core class (all)'
	else
		assert_output --partial "this run measured class 'all' only"
	fi
	assert_output --partial '0 hold, 0 do not hold, 1 not applicable'
}

@test "exercise 6: make check EXERCISE=6 on the exempt run says P7 and the comparison hold" {
	need_gate
	check_step 6 ex6
	assert_success
	assert_output --regexp 'P7 exemption +holds'
	assert_output --regexp 'E6 exemption compared +holds'
	assert_output --regexp 'exe: [0-9]+\.[0-9]{2} ms, slowdown without → -?[0-9]+\.[0-9]{2} ms, none with'
	assert_output --partial '2 hold, 0 do not hold, 0 not applicable'
}

@test "exercise 6: make check EXERCISE=6 on exercise 1's run (no exe, not exempt) is not applicable" {
	need_gate
	# the check without A and B, on exercise 1's run
	run env RESULTS="$R" sh "$ROOT/scripts/check" --exercise 6 --run "$(step_run ex1)"
	printf '%s\n' "$output" | sed 's/^/# /' >&3
	assert_success
	assert_output --regexp 'P7 exemption +not applicable'
	assert_output --regexp 'E6 exemption compared +not applicable'
}

@test "exercise 6: make compare shows exe going from slowdown to none" {
	need_gate
	local cmd
	# as written: the runs named by their tags
	# the line itself: its text begins the offline compare's too (B=ex6off)
	cmd=$(awk '$0 == "make compare A=ex2 B=ex6" { print; exit }' "$ROOT/docs/workshop.md")
	[ -n "$cmd" ] || fail "docs/workshop.md has no line 'make compare A=ex2 B=ex6'"
	run env RESULTS="$R" bash -c "cd '$ROOT' && $cmd -s --no-print-directory" 3>&-
	assert_success
	assert_line --regexp '^  exe T=1 all: slowdown → none \([0-9]+\.[0-9]{2} → -?[0-9]+\.[0-9]{2} ms\)$'
}

@test "exercise 7: after make feedback, make check EXERCISE=7 says the bundle is there and redacted" {
	need_gate
	local cmd
	cmd=$(guide_line "make feedback")
	run bash -c "cd '$ROOT' && $cmd -s --no-print-directory RESULTS='$R'" 3>&-
	assert_success
	check 7
	assert_success
	assert_output --regexp 'E7 feedback bundle +holds'
}

@test "exercise 7: a bundle holding the home folder does not hold" {
	need_gate
	[ "${#HOME}" -gt 1 ] || skip "HOME is '$HOME': nothing to find"
	local r="$BATS_TEST_TMPDIR/results/20990101T000000Z-aaaaaa"
	mkdir -p "$r/feedback" "$BATS_TEST_TMPDIR/leak"
	cp "$(step_run ex1)/run.json" "$r/"
	printf 'log from %s/work\n' "$HOME" >"$BATS_TEST_TMPDIR/leak/notes.txt"
	tar -czf "$r/feedback/execlag-2099-01-01.tar.gz" -C "$BATS_TEST_TMPDIR/leak" notes.txt
	printf 'feedback\n' >"$r/feedback/feedback.txt"
	# a finding about the bundle, not an error of the kit: make check exits 0
	run bash -c "cd '$ROOT' && make check EXERCISE=7 RUN='$r' -s --no-print-directory" 3>&-
	assert_success
	assert_output --regexp 'E7 feedback bundle +DOES NOT HOLD'
	assert_output --partial "names '$HOME'"
	assert_equal "${lines[${#lines[@]} - 1]}" "A pattern that does not hold is a finding about this machine, not an error of the kit (exit status 1 here; make check exits 0)."
}

@test "leader: make aggregate over everyone's run.json shows one row per run, no warning" {
	need_gate
	local cmd n=0 d
	for d in "$R"/*/; do
		n=$((n + 1))
		mkdir -p "$BATS_TEST_TMPDIR/workshop/seat0$n"
		cp "$d/run.json" "$BATS_TEST_TMPDIR/workshop/seat0$n/"
	done
	cmd=$(guide_line "make aggregate DIR=workshop")
	cmd=${cmd//DIR=workshop/DIR=$BATS_TEST_TMPDIR/workshop}
	run --separate-stderr bash -c "cd '$ROOT' && $cmd -s --no-print-directory" 3>&-
	assert_success
	[ -z "$stderr" ] || fail "warnings: $stderr"
	# one row per run in the compact table, and again in the full one
	assert_equal "$(printf '%s\n' "$output" | sed -n '1,/^## Full table/p' | grep -c '^| [0-9]')" "$n"
	assert_equal "$(printf '%s\n' "$output" | sed -n '/^## Full table/,$p' | grep -c '^| [0-9]')" "$n"
	[ -s "$BATS_TEST_TMPDIR/workshop/aggregate.md" ]
	[ -s "$BATS_TEST_TMPDIR/workshop/aggregate.csv" ]
	[ -s "$BATS_TEST_TMPDIR/workshop/aggregate.svg" ]
}
