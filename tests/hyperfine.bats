#!/usr/bin/env bats
# hyperfine as a second instrument (scripts/probe/hfcheck, micro/stats/hfcompare.c):
# without hyperfine (or with one too old) the cross-check is a note, never a
# failed run; an interrupt stops it; bad usage is refused; and analyze
# compares the two instruments on fixtures.  The two instruments on real
# launches, plain and under the calibration gate, are make test-live's
# (tests/live/hyperfine.bats).

load test_helper/common-setup
load test_helper/jqbatch
load test_helper/quickrun

setup_file() {
	_common_setup
	interrupt_tests_alone
	make -C "$ROOT" -s build >/dev/null
}

setup() {
	_common_setup
	D="$BATS_TEST_TMPDIR"
}

# the analyze tests' values of run.json asked by one jq a group (jq_is,
# test_helper/jqbatch.bash): flushed before analyze remakes it, and here
teardown() { jq_flush; }

need_hyperfine() { need_tool hyperfine hyperfine; }
need_linux() { [ "$(uname -s)" = Linux ] || skip "the plain control and the gate are Linux"; }

# A hyperfine that reports VERSION and otherwise is the real one.
fake_hyperfine() {
	local dir=$1 version=$2 real
	real=$(command -v hyperfine)
	mkdir -p "$dir"
	printf '#!/bin/sh\nif [ "${1:-}" = --version ]; then echo "%s"; exit 0; fi\nexec "%s" "$@"\n' \
		"$version" "$real" >"$dir/hyperfine"
	chmod +x "$dir/hyperfine"
}

@test "without hyperfine on PATH the run succeeds and the report notes the skipped cross-check" {
	need_linux
	path_without "$D/bin" hyperfine
	if env PATH="$D/bin" sh -c 'command -v hyperfine' >/dev/null 2>&1; then
		fail "hyperfine is still on the PATH made without it"
	fi
	mkdir -p "$D/results" "$D/tmp"
	# the script case (cross-checked like exe, and its files need no
	# compiler): hfcheck stops at the missing hyperfine before its files
	run env PATH="$D/bin" RESULTS="$D/results" TMPDIR="$D/tmp" make -s -C "$ROOT" repro \
		CASES=script THREADS=1 COUNT=6
	assert_success
	# (the one run's run.json by the shell's glob, not ls; its values by
	# one jq, jqbatch's; the report read by the shell, not grep)
	local rs=("$D"/results/*/run.json) rep=
	assert_equal "${#rs[@]}" 1
	r=${rs[0]} JSON=${rs[0]}
	jq_is '.hyperfine.status' skipped
	jq_is '.hyperfine.note | test("not found")' true
	jq_is '.hyperfine.cases | length' 0
	jq_flush
	IFS= read -r -d '' rep <"${r%/*}/report.md" || :
	[[ "$rep" == *'Cross-check skipped: hyperfine not found on PATH'* ]] || fail "report.md: $rep"
	assert_output --partial 'hyperfine cross-check skipped'
	assert_empty "$D/tmp"
}

@test "an interrupt during the cross-check: exit 130, no file left, hyperfine stopped" {
	need_sigint
	need_linux
	# a hyperfine that never finishes, and says who it is: in a file, and
	# through a FIFO this test waits on (a read that times out, not a poll
	# that starts a sleep every 50 ms while repro gets there)
	mkdir -p "$D/slow" "$D/tmp" "$D/results"
	mkfifo "$D/started"
	printf '#!/bin/sh\nif [ "${1:-}" = --version ]; then echo "hyperfine 1.15.0"; exit 0; fi\necho $$ >"%s"\necho $$ >"%s"\nexec sleep 60\n' \
		"$D/slow.pid" "$D/started" >"$D/slow/hyperfine"
	chmod +x "$D/slow/hyperfine"
	set -m
	PATH="$D/slow:$PATH" TMPDIR="$D/tmp" RESULTS="$D/results" sh "$ROOT/scripts/repro" \
		--cases exe --threads 1 --count 6 >"$D/out" 2>&1 3>&- &
	pid=$!
	set +m
	# opened for reading and writing: the open never waits; the read, at
	# most 60 s (a bound, not a timing)
	exec 4<>"$D/started"
	read -r -t 60 started <&4 || true
	exec 4<&-
	[ -s "$D/slow.pid" ] || fail "hyperfine was not started: $(tail -n 3 "$D/out")"
	kill -INT "$pid"
	rc=0
	wait "$pid" || rc=$?
	assert_equal "$rc" 130
	if kill -0 "$(cat "$D/slow.pid")" 2>/dev/null; then
		kill "$(cat "$D/slow.pid")"
		fail "hyperfine is still running after the interrupt"
	fi
	assert_empty "$D/tmp" "$D/results"
}

@test "hyperfine older than 1.13 (no -N) or of no stated version is skipped, with a note saying which" {
	need_hyperfine
	fake_hyperfine "$D/old" "hyperfine 1.12.0"
	mkdir -p "$D/w" "$D/raw"
	PATH="$D/old:$PATH" run_sep sh "$ROOT/scripts/probe/hfcheck" --dir "$D/w" --raw "$D/raw" --cases exe
	assert_success
	assert_line hyperfine.status=skipped
	assert_line --partial 'hyperfine.note=hyperfine 1.12.0 is older than 1.13'
	assert_empty "$D/w" "$D/raw"
	# (was: "a version hyperfine does not state is skipped with a note")
	fake_hyperfine "$D/odd" "hyperfine (development build)"
	mkdir -p "$D/w" "$D/raw"
	PATH="$D/odd:$PATH" run_sep sh "$ROOT/scripts/probe/hfcheck" --dir "$D/w" --raw "$D/raw" --cases exe
	assert_success
	assert_line hyperfine.status=skipped
	assert_line --partial 'cannot read the version'
}

@test "a newer hyperfine passes the version gate and writes both exports" {
	need_hyperfine
	fake_hyperfine "$D/new" "hyperfine 1.19.0"
	mkdir -p "$D/w" "$D/raw"
	# the script case: its fresh files are made without a compiler (an exe
	# case's twelve compiles cost more than the rest of this file's tests;
	# the exe target's prepare is the interrupt test's, its launches make
	# test-live's)
	PATH="$D/new:$PATH" run_sep sh "$ROOT/scripts/probe/hfcheck" --dir "$D/w" --raw "$D/raw" \
		--cases script,dylib --runs 5
	assert_success
	assert_line hyperfine.status=done
	assert_line hyperfine.version=1.19.0
	assert_line hyperfine.cases=script
	assert_equal "$(jq -r -s 'map(.results[0].times | length | tostring) | join(" ")' "$D/raw/hyperfine-script-first.json" "$D/raw/hyperfine-script-repeat.json")" "5 5"
	# the fresh files hyperfine launched are gone from the work folder
	assert_empty "$D/w"
}

# A hyperfine whose launches behave as FIRST and REPEAT say: "hang" (the
# program it launched never ends, and ignores TERM, as one held in execve),
# or "slow" (each run's prepare, then 0.3 s, then the export).  The pids of
# the fake and of what it launched go to $D/pids.
stuck_hyperfine() {
	mkdir -p "$D/stuck"
	cat >"$D/stuck/hyperfine" <<EOF
#!/bin/sh
[ "\${1:-}" != --version ] || { echo "hyperfine 1.15.0"; exit 0; }
prep="" out="" runs=3
while [ \$# -gt 0 ]; do
	case \$1 in
	--prepare) prep=\$2; shift ;;
	--export-json) out=\$2; shift ;;
	--runs) runs=\$2; shift ;;
	esac
	shift
done
how=$2
[ -z "\$prep" ] || how=$1
echo \$\$ >>"$D/pids"
if [ "\$how" = hang ]; then
	sh -c 'trap "" TERM; echo \$\$ >>"$D/pids"; exec sleep 60' &
	wait
fi
i=0
while [ \$i -lt "\$runs" ]; do
	[ -z "\$prep" ] || sh -c "\$prep" || exit 1
	sleep 0.3
	i=\$((i + 1))
done
printf '{"results":[{"times":[0.001]}]}\n' >"\$out"
EOF
	chmod +x "$D/stuck/hyperfine"
}

# stuck_hfcheck FIRST REPEAT ARGS...: hfcheck on the script case with that
# hyperfine (the fake launches nothing: the script case's fresh files need
# no compiler, the exe case's a compile each); it ends, status 0, and says
# the cross-check failed
stuck_hfcheck() {
	stuck_hyperfine "$1" "$2"
	shift 2
	mkdir -p "$D/w" "$D/raw"
	PATH="$D/stuck:$PATH" run_sep sh "$ROOT/scripts/probe/hfcheck" --dir "$D/w" --raw "$D/raw" \
		--cases script "$@"
	assert_success
	assert_line hyperfine.status=failed
}

# none_left: no pid of $D/pids is still running (a zombie has ended: one
# whose parent was killed waits for init to reap it)
none_left() {
	local p st
	for p in $(cat "$D/pids"); do
		st=$(ps -o stat= -p "$p" 2>/dev/null || true)
		case $st in
		'' | Z*) ;;
		*)
			kill -KILL "$p"
			fail "process $p (hyperfine or what it launched) is still running: $st"
			;;
		esac
	done
}

@test "a hyperfine launch that never ends is killed at the bound with its children: a note, nothing left" {
	stuck_hfcheck hang slow --runs 3 --hang-s 1
	assert_line "hyperfine.note=hyperfine's script first runs did not end within 1 s (a launch held by a checker?): hyperfine and what it launched were killed"
	assert_equal "$(wc -l <"$D/pids" | tr -d ' ')" 2
	none_left
	assert_empty "$D/w" "$D/raw"
}

@test "first runs that move on are not cut short by the bound; repeats past it are killed" {
	# 10 first runs of 0.3 s each, 3 s in all, under a bound of 2 s
	# counted from the last run's prepare (the watchdog looks once a
	# second: 2 is the least bound that a prepare every 0.3 s keeps from
	# firing; at 1 it fires at its first look); then repeats that never end
	stuck_hfcheck slow hang --runs 10 --hang-s 2
	# the repeats' bound: 2 s and 0.1 s a run (13 with the warm-up), rounded up
	assert_line --partial "hyperfine.note=hyperfine's script repeats did not end within 4 s"
	[ -s "$D/raw/hyperfine-script-first.json" ] || fail "the first runs were cut short: $output"
	[ ! -e "$D/raw/hyperfine-script-repeat.json" ] || fail "a repeat export from a killed hyperfine"
	none_left
}

@test "no exe or script case: hfcheck prints nothing and run.json has no hyperfine block" {
	mkdir -p "$D/w" "$D/raw"
	run_sep sh "$ROOT/scripts/probe/hfcheck" --dir "$D/w" --raw "$D/raw" --cases dylib,suite
	assert_success
	assert_output ""
}

@test "hfcheck refuses bad usage with one line and exit 2" {
	mkdir -p "$D/w" "$D/raw"
	for args in "--dir $D/w --raw $D/raw --cases exe --runs 2" "--raw $D/raw --cases exe" \
		"--dir $D/w --raw $D/raw --cases exe --hang-s 0" "--dir $D/w --raw $D/raw --cases exe --hang-s 1s" \
		"--dir $D/nowhere --raw $D/raw --cases exe" "--dir $D/w --raw $D/raw --bogus"; do
		# shellcheck disable=SC2086
		run_sep sh "$ROOT/scripts/probe/hfcheck" $args
		assert_equal "$status" 2
		assert_equal "${#stderr_lines[@]}" 1
	done
	run sh "$ROOT/scripts/probe/hfcheck" --help
	assert_success
}

@test "analyze (fixture): a difference beyond the tolerance is flagged, one within it is not" {
	cp -R "$FIXTURES/analyze/hyperfine" "$D/run"
	run "$BIN/analyze" --run "$D/run"
	assert_success
	r="$D/run/run.json" JSON="$D/run/run.json"
	# exe: hyperfine 24 / 1.2 ms against 23.5 / 1.0 ms: within max(25%, 1 ms)
	jq_is '.hyperfine.cases[0] | [.case, .first_median_ms, .repeat_median_ms, .agree] | join(" ")' "exe 24 1.2 true"
	# script: first 10 ms against 2 ms, beyond max(0.5, 1) ms
	jq_is '.hyperfine.cases[1] | [.case, .agree] | join(" ")' "script false"
	jq_is '.hyperfine.cases[1].reason | test("first median differs by 8.00 ms \\(tolerance 1.00 ms\\)")' true
	jq_is '.hyperfine.agree' false
	jq_is '.hyperfine.tolerance | [.relative, .absolute_ms] | join(" ")' "0.25 1"
	grep -q '| script | 10.00 | 1.00 | 9.00 | 2.00 | 1.00 | 1.00 | T=1 all | DISAGREE |' "$D/run/report.md"
	assert_output --partial 'hyperfine script: first 10.00 ms, repeat 1.00 ms (harness 2.00, 1.00): DISAGREE'
}

@test "analyze (fixture): each median's own noise widens the tolerance; without, the same gap disagrees" {
	cp -R "$FIXTURES/analyze/hyperfine" "$D/run"
	f="$D/run/raw/hyperfine-script-first.json"
	# eight first runs 2.0 to 5.5 ms: median 3.75, its 95% interval is
	# [x(1), x(8)], half-width 1.75; the harness's six launches are all
	# 2.00 ms (half-width 0); 3.75 - 2.00 = 1.75 > the fixed 1 ms
	jq '.results[0].times = [0.002, 0.0025, 0.003, 0.0035, 0.004, 0.0045, 0.005, 0.0055]' "$f" >"$f.new"
	mv "$f.new" "$f"
	run "$BIN/analyze" --run "$D/run"
	assert_success
	r="$D/run/run.json" JSON="$D/run/run.json"
	jq_is '.hyperfine.cases[1] | [.case, .first_median_ms, .agree] | join(" ")' "script 3.75 true"
	# hyperfine's penalty 2.75 ms is above the 1 ms floor, but not by more
	# than its own noise (1.75): not a penalty seen
	jq_is '.hyperfine.cases[1].penalty_seen' false
	# first: 1 + 1.75; repeat: 1 (five equal runs, no interval); penalty: 1 + 1.75
	jq_is '.hyperfine.cases[1].tolerance_ms | [.first, .repeat, .penalty] | join(" ")' "2.75 1 2.75"
	jq_is '.hyperfine.tolerance.noise_coverage' 0.95
	jq_is '.hyperfine.cases[1].reason | test("within the tolerance \\(2.75, 1.00 and 2.75 ms\\)")' true
	jq_flush
	# the same median from eight equal runs has no noise: it disagrees
	jq '.results[0].times = [0.00375, 0.00375, 0.00375, 0.00375, 0.00375, 0.00375, 0.00375, 0.00375]' "$f" >"$f.new"
	mv "$f.new" "$f"
	run "$BIN/analyze" --run "$D/run"
	assert_success
	jq_is '.hyperfine.cases[1].agree' false
	jq_is '.hyperfine.cases[1].reason | test("first median differs by 1.75 ms \\(tolerance 1.00 ms\\)")' true
	# without noise the same 2.75 ms is a penalty seen
	jq_is '.hyperfine.cases[1].penalty_seen' true
	[ -n "$(schema_skip_reason)" ] || run -0 validate_run_json "$r"
}

@test "analyze (fixture): a cache keyed by path or content compares only the repeats; the report says why" {
	local key
	for key in path content; do
		rm -rf "$D/run"
		cp -R "$FIXTURES/analyze/hyperfine" "$D/run"
		sed -i.bak "s/^gate.active=0\$/gate.active=1\\
gate.latency_ms=20\\
gate.key=$key/" "$D/run/conditions.txt"
		grep -q "^gate.key=$key\$" "$D/run/conditions.txt"
		run "$BIN/analyze" --run "$D/run"
		assert_success
		r="$D/run/run.json" JSON="$D/run/run.json"
		# script: first 10 ms against the harness's 2 (a hit by path or
		# content, not a disagreement); repeats 1.00 and 1.00 agree
		jq_is '.hyperfine.cases[1] | [.case, .agree, .compared] | join(" ")' "script true repeat median"
		jq -e --arg k "$key" '.hyperfine.cases[1].reason | test("first median and penalty not compared: hyperfine.s new file has the same path and bytes, which a cache keyed by " + $k + " \\(the gate.s key\\)")' "$r"
		assert_output --partial 'hyperfine script: first 10.00 ms, repeat 1.00 ms (harness 2.00, 1.00): agree (repeats only)'
		grep -q '| script | 10.00 | 1.00 | 9.00 | 2.00 | 1.00 | 1.00 | T=1 all | agree (repeats only) |' "$D/run/report.md"
		cp "$r" "$D/run-$key.json"
		jq_flush
	done
	# both keys' run.json valid, one validator start for the two
	[ -n "$(schema_skip_reason)" ] || run -0 validate_run_json "$D/run-path.json" "$D/run-content.json"
	# under key=inode everything is compared, and the script disagrees
	sed -i.bak 's/^gate.key=content$/gate.key=inode/' "$D/run/conditions.txt"
	run "$BIN/analyze" --run "$D/run"
	jq_is '.hyperfine.cases[1] | [.agree, .compared] | join(" ")' "false all"
}

@test "analyze: a hyperfine export that is not JSON is refused with one line naming it" {
	cp -R "$FIXTURES/analyze/hyperfine" "$D/run"
	echo 'not json' >"$D/run/raw/hyperfine-exe-repeat.json"
	run_sep "$BIN/analyze" --run "$D/run"
	assert_equal "$status" 2
	assert_equal "${#stderr_lines[@]}" 1
	[[ "$stderr" == *"hyperfine-exe-repeat.json"* ]]
	[ ! -e "$D/run/run.json" ]
}
