#!/usr/bin/env bats
# The suite case (micro/suite through scripts/repro and analyze): a compiler
# test suite in miniature.  The suite block a plain run fills, its
# programs never outliving the run (also when interrupted), micro/suite's
# passes and refusals, and analyze's projection on fixtures.  Its timings
# on plain Linux and under the calibration gate are make test-live's
# (tests/live/suite.bats).

load test_helper/common-setup
load test_helper/jqbatch
load test_helper/quickrun

# programs per set: the fewest a run takes (MIN_PAIRS, 6), so the file
# stays quick (each is compiled twice at each J); the tests read the suite
# block's shape and what is left behind, not its numbers
M=6

setup_file() {
	_common_setup
	interrupt_tests_alone
	schema_validator_keep # (python's import of jsonschema asked once, not per validation)
	make -C "$ROOT" -s build >/dev/null
	# the gated runs, and the tests of the plain run's timings, are
	# tests/live/suite.bats's
	export GATE_SKIP="the runs under the gate are make test-live's"
	export RUNS="$BATS_FILE_TMPDIR/runs"
	mkdir -p "$RUNS"
	[ "$(uname -s)" = Linux ] || return 0
	# its compiles (24: each program twice at each J) by h6-suite-cc: the
	# first compiled, the others copies of it (their sources differ only
	# in their nonce); these tests read the block's shape and what is left
	# behind, not the compiles' times (the real ones are make test-live's)
	# (a CC with arguments, as CC='zig cc', compiles each as it is)
	local cc=${CC:-cc} real
	case $cc in
	*[[:space:]]*) repro_run plain --cases suite --count "$M" --threads 1,2 ;;
	*)
		real=$(command -v "$cc") || real=$cc
		CC="$ROOT/tests/test_helper/h6-suite-cc" SUITE_CC_REAL=$real \
			SUITE_CC_DIR="$BATS_FILE_TMPDIR/suite-cc" repro_run plain --cases suite --count "$M" --threads 1,2
		;;
	esac
}

setup() {
	_common_setup
	RUNS="$BATS_FILE_TMPDIR/runs"
	D="$BATS_TEST_TMPDIR"
}

# jq_is FILTER WANT: test_helper/jqbatch.bash, asked by one jq a group; what
# is left is asked at the test's end
teardown() { jq_flush; }

# (bash's OSTYPE: the kernel uname -s names, without a process)
need_linux() { [[ "$OSTYPE" == linux* ]] || skip "the plain control and the gate are Linux"; }

# json_of NAME: r, the first run.json of $RUNS/NAME (as ls sorts; by a glob)
json_of() {
	local j
	r=""
	for j in "$RUNS/$1"/*/run.json; do
		[ -e "$j" ] && { r=$j; return 0; }
	done
}

@test "--cases suite runs alone: the suite block is filled and there are no other cases" {
	need_linux
	json_of plain
	JSON="$r"; jq_is '.cases | length' 0
	JSON="$r"; jq_is '.suite.programs' "$M"
	JSON="$r"; jq_is '[.suite.runs[].jobs] | join(",")' 1,2
	JSON="$r"; jq_is '.hyperfine' null
	[ -f "${r%/*}/raw/suite-t1-all.suite.tsv" ]
	[ -n "$(schema_skip_reason)" ] || run_both -0 validate_run_json "$r"
}

@test "a run leaves no program, source or binary behind" {
	need_linux
	assert_empty "$RUNS/plain.tmp"
	if [ -z "$GATE_SKIP" ]; then
		assert_empty "$RUNS/serial.tmp" "$RUNS/two.tmp"
	fi
}

@test "SIGINT mid-suite: exit 130, and no program, source, binary or half-written run is left" {
	need_sigint
	mkdir -p "$D/tmp" "$D/results"
	# job control on, so the background shell does not start with SIGINT ignored
	set -m
	TMPDIR="$D/tmp" RESULTS="$D/results" sh "$ROOT/scripts/repro" --cases suite --count 200 \
		--threads 1 >"$D/out" 2>&1 3>&- &
	pid=$!
	set +m
	# wait until binaries are being compiled, then interrupt (the binaries
	# built so far, one to three folders below TMPDIR, counted by the
	# shell's globs: a find and a wc each look were three processes)
	i=0
	until n=0 && for f in "$D"/tmp/*/suite-*-a-* "$D"/tmp/*/*/suite-*-a-* "$D"/tmp/*/*/*/suite-*-a-*; do
		case $f in *.c) ;; *) [ ! -e "$f" ] || n=$((n + 1)) ;; esac
	done && [ "$n" -ge 3 ] || [ $i -ge 200 ]; do
		sleep 0.05
		i=$((i + 1))
	done
	[ "$(find "$D/tmp" -name 'suite-*.c' | wc -l)" -gt 0 ] || fail "the suite made no programs: $(cat "$D/out")"
	kill -INT "$pid"
	rc=0
	wait "$pid" || rc=$?
	assert_equal "$rc" 130
	assert_empty "$D/tmp"
	assert_empty "$D/results"
	run_both pgrep -f "$D/tmp"
	assert_failure
}

@test "micro/suite alone, interrupted: exit 130, its folder empty, no results file" {
	mkdir -p "$D/w"
	"$BIN/suite" --dir "$D/w" --count 200 --jobs 2 --out "$D/s.tsv" --quiet 2>"$D/err" 3>&- &
	pid=$!
	i=0
	# (the programs built so far, by the shell: a find and a wc each look)
	until n=0 && for f in "$D/w"/*-a-*; do case $f in *.c) ;; *) [ ! -e "$f" ] || n=$((n + 1)) ;; esac; done &&
		[ "$n" -ge 2 ] || [ $i -ge 200 ]; do
		sleep 0.05
		i=$((i + 1))
	done
	kill -TERM "$pid"
	rc=0
	wait "$pid" || rc=$?
	assert_equal "$rc" 130
	assert_empty "$D/w"
	[ ! -e "$D/s.tsv" ]
	grep -q 'interrupted' "$D/err"
}

@test "micro/suite writes four passes of M samples and removes its programs" {
	mkdir -p "$D/w"
	# M=2 (as many as the jobs): each program is compiled in two passes
	run_both "$BIN/suite" --dir "$D/w" --count 2 --jobs 2 --out "$D/s.tsv" --prefix t
	assert_success
	assert_empty "$D/w"
	# (one awk for all that is counted, a line each: the header; the pass
	# lines; the samples of fresh, rerun, build and alone; then below)
	# every program compiled and exited 0; runs are timed where the pass runs
	# (the samples that are not so: failed, timed in the build pass, untimed
	# alone)
	assert_equal "$(awk -F '\t' 'NR == 1 { head = $0 }
		$1 == "pass" { np++ }
		$1 == "sample" { ns[$2]++ }
		$1 == "sample" && ($7 != 0 || $8 != 0 || $9 != 0) { f++ }
		$1 == "sample" && $2 == "build" && $6 != "-" { b++ }
		$1 == "sample" && $2 == "alone" && ($5 != "-" || $6 == "-") { a++ }
		END { print head; print np + 0; print ns["fresh"] + 0, ns["rerun"] + 0, ns["build"] + 0, ns["alone"] + 0
			print f + 0, b + 0, a + 0 }' "$D/s.tsv")" $'execlag-suite\t1\n4\n2 2 2 2\n0 0 0'
}

@test "micro/suite, simulated: one compile, timed, stands for each program's; a failing one fails the run" {
	mkdir -p "$D/w"
	# a compiler that counts its calls (the real one does the work)
	printf '#!/bin/sh\necho x >>"%s"\nexec cc "$@"\n' "$D/compiles" >"$D/cc"
	chmod +x "$D/cc"
	CC="$D/cc" run_both "$BIN/suite" --dir "$D/w" --count 6 --jobs 2 --out "$D/s.tsv" --prefix t --quiet \
		--launcher 'sim:latency=20 workers=1 key=inode seed=7'
	assert_success
	# (the compiles' lines counted by the shell)
	local n=0 l
	while IFS= read -r l; do n=$((n + 1)); done <"$D/compiles"
	assert_equal "$n" 1
	assert_empty "$D/w"
	# (one awk for all that is counted, a line each: the samples of fresh,
	# rerun, build and alone; then below)
	# the 12 compiles of fresh and build each the one compile's time (their
	# distinct times; those timed above 0), every program "exited 0" (the
	# samples that did not), the runs the model's
	assert_equal "$(awk -F '\t' '$1 == "sample" { ns[$2]++ }
		$1 == "sample" && ($2 == "fresh" || $2 == "build") && !($5 in u) { u[$5] = 1; nu++ }
		$1 == "sample" && ($2 == "fresh" || $2 == "build") && $5 != "-" && $5 > 0 { t++ }
		$1 == "sample" && ($7 != 0 || $8 != 0 || $9 != 0) { f++ }
		END { print ns["fresh"] + 0, ns["rerun"] + 0, ns["build"] + 0, ns["alone"] + 0; print nu + 0; print t + 0; print f + 0 }' \
		"$D/s.tsv")" $'6 6 6 6\n1\n12\n0'
	# a compiler that fails the one compile fails the run, as the fresh pass would
	printf '#!/bin/sh\nexit 3\n' >"$D/cc"
	CC="$D/cc" run_sep "$BIN/suite" --dir "$D/w" --count 6 --jobs 2 --out "$D/f.tsv" --prefix t \
		--launcher 'sim:latency=20 workers=1 key=inode seed=7'
	assert_equal "$status" 1
	assert_equal "$stderr" "suite: fresh $D/cc failed (status 3) on $D/w/t-a-0000.c"
	[ ! -e "$D/f.tsv" ]
	assert_empty "$D/w"
}

@test "micro/suite refuses bad usage with one line and exit 2, making nothing" {
	mkdir -p "$D/w"
	for args in "--count 0" "--count 3 --jobs 4" "--count 3 --prefix a/b" "--count x" \
		"--count 3 --frob 1" "--count 3 --jobs 0"; do
		# shellcheck disable=SC2086
		run_sep "$BIN/suite" --dir "$D/w" --out "$D/s.tsv" $args
		assert_equal "$status" 2
		assert_equal "${#stderr_lines[@]}" 1
	done
	run_sep "$BIN/suite" --dir "$D/nowhere" --count 2 --out "$D/s.tsv"
	assert_equal "$status" 2
	CC=/nonexistent/cc run_sep "$BIN/suite" --dir "$D/w" --count 2 --out "$D/s.tsv"
	assert_equal "$status" 2
	[[ "$stderr" == *"no C compiler"* ]]
	assert_empty "$D/w"
	[ ! -e "$D/s.tsv" ]
	run_both "$BIN/suite" --help
	assert_success
	assert_output --partial 'usage: suite'
}

@test "analyze (fixtures): a suite's penalty, overlap, share, projection; the floor; a corrupt file refused" {
	# analyze (fixtures): per-launch penalty, overlap, share, utilisation and projection; held to the cases' floor; no cost, no projection; a corrupt suite file refused
	# -- analyze (fixture): per-launch penalty, overlap, share, utilisation and projection
	cp -R "$FIXTURES/analyze/suite" "$D/run"
	run_both "$BIN/analyze" --run "$D/run"
	assert_success
	r="$D/run/run.json"
	# J=1: A - R = 132 - 12 ms over 6 programs: p = 20 ms; 14000 x 20 ms = 4.67 min
	JSON="$r"; jq_is '.suite.penalty_per_launch_ms' 20
	JSON="$r"; jq_is '.suite.runs[0] | [.jobs, .first_launch_cost_ms, .share_of_fresh, .concurrency, .verdict] | join(" ")' "1 120 0.1 1 slowdown"
	JSON="$r"; jq_is '.suite.runs[0].passes.fresh.utilisation' 0.25
	JSON="$r"; jq_is '.suite.runs[0].projection_min * 1000 | round' 4667
	# J=2 serialised (120 ms again: overlap 1), J=4 parallel (30 ms: overlap 4)
	JSON="$r"; jq_is '.suite.runs[1] | [.jobs, .concurrency] | join(" ")' "2 1"
	JSON="$r"; jq_is '.suite.runs[2] | [.jobs, .concurrency, (.projection_min * 1000 | round)] | join(" ")' "4 4 1167"
	# d = 19 20 20 20 21 22: median 20, interval [19, 22]
	JSON="$r"; jq_is '.suite.runs[0].launch_penalty_ms | [.median, .ci_low, .ci_high] | join(" ")' "20 19 22"
	grep -q 'at least 4.7 minutes in first-launch checks (14,000 × 20.00 ms ÷ 1.00' "$D/run/report.md"
	assert_output --partial 'suite J=4 (M=6)'
	# -- analyze (fixture): the suite is held to the cases' floor (a quarter of an unloaded re-run)
	cp -R "$FIXTURES/analyze/suite" "$D/run2"
	# the same per-launch differences (interval [19, 22] ms) on programs whose
	# re-runs take 100 ms more: the re-runs' lower quartile is about 102 ms,
	# so the floor is about 25.5 ms and the cost lies below it
	awk -F '\t' -v OFS='\t' '$1 == "sample" && ($2 == "rerun" || $2 == "alone") && $6 != "-" { $6 += 100000000 } 1' \
		"$FIXTURES/analyze/suite/raw/suite-t1-all.suite.tsv" >"$D/run2/raw/suite-t1-all.suite.tsv"
	run_both "$BIN/analyze" --run "$D/run2"
	assert_success
	r="$D/run2/run.json"
	JSON="$r"; jq_is '.suite.runs[0].launch_penalty_ms | [.median, .ci_low, .ci_high] | join(" ")' "20 19 22"
	JSON="$r"; jq_is '.suite.runs[0].verdict' none
	[[ "$(jq -r '.suite.runs[0].reason' "$r")" == *"below the 25."*" ms floor (0.25 x an unloaded launch of 10"*" ms)"* ]]
	# the unmoved fixture is still a slowdown above the 1 ms floor
	JSON="$r"; jq_is '.suite.runs[1].verdict' slowdown
	# -- analyze (fixture): no first-launch cost gives no projection and says so
	cp -R "$FIXTURES/analyze/suite-none" "$D/run3"
	run_both "$BIN/analyze" --run "$D/run3"
	assert_success
	JSON="$D/run3/run.json"; jq_is '.suite.runs[0] | [.verdict, .projection_min] | join(" ")' "none "
	grep -q 'no measurable first-launch cost: a suite of 14,000 programs at 1 job would spend no measurable time' "$D/run3/report.md"
	# -- analyze: a corrupt suite file is refused with one line naming it, and nothing is written
	cp -R "$FIXTURES/analyze/suite" "$D/run4"
	sed 's/^pass	alone	.*/pass	alone	x	1	1	6/' "$FIXTURES/analyze/suite/raw/suite-t2-all.suite.tsv" \
		>"$D/run4/raw/suite-t2-all.suite.tsv"
	run_sep "$BIN/analyze" --run "$D/run4"
	assert_equal "$status" 2
	assert_equal "${#stderr_lines[@]}" 1
	[[ "$stderr" == *"suite-t2-all.suite.tsv:"* ]]
	[ ! -e "$D/run4/run.json" ]
}
# ns_v MS: NS, MS (digits, a point and at most 6 more) in ns, as awk's
# printf "%.0f" of MS x 1000000 gives it, without a process
ns_v() {
	local i=${1%%.*} f=""
	case $1 in *.*) f=${1#*.} ;; esac
	f="${f}000000"
	NS=$((10#$i * 1000000 + 10#${f:0:6}))
}

# suite_tsv FILE J ALONE_WALL_MS RERUN_WALL_MS "ALONE MS..." "RERUN MS...": a
# suite file of M = 6 programs with the given first-runs-alone and re-run
# times, one program per sample
suite_tsv() {
	local f=$1 j=$2 aw rw i=0 v NS
	ns_v "$3"; aw=$NS
	ns_v "$4"; rw=$NS
	{
		printf 'execlag-suite\t1\nmeta\tcase\tsuite\nmeta\tm\t6\nmeta\tjobs\t%s\nmeta\tcores\t2\nmeta\tcc\tcc\n' "$j"
		printf 'pass\tfresh\t700000000\t600000\t0\t6\npass\tbuild\t450000000\t900000\t0\t6\n'
		printf 'pass\talone\t%s\t6000\t0\t6\npass\trerun\t%s\t6000\t0\t6\n' "$aw" "$rw"
		for i in 0 1 2 3 4 5; do
			printf 'sample\tfresh\t0\t%s\t70000000\t40000000\t0\t0\t0\n' "$i"
			printf 'sample\tbuild\t0\t%s\t70000000\t-\t0\t0\t0\n' "$i"
		done
		i=0
		for v in $5; do ns_v "$v"; printf 'sample\talone\t0\t%s\t-\t%s\t0\t0\t0\n' "$i" "$NS"; i=$((i + 1)); done
		i=0
		for v in $6; do ns_v "$v"; printf 'sample\trerun\t0\t%s\t-\t%s\t0\t0\t0\n' "$i" "$NS"; i=$((i + 1)); done
	} >"$f"
}

# the projection's invariants: an overlap within 1..J or none; a per-launch
# penalty only beside a J = 1 slowdown; no "÷ 0.x" checks at once
projection_sane() {
	local r=$1
	# (each: true, else the values it was asked of, as its message)
	JSON=$r
	jq_is 'if [.suite.runs[] | .concurrency == null or (.concurrency >= 1 and .concurrency <= .jobs)] | all then true
		else "overlap outside 1..J: \([.suite.runs[] | [.jobs, .concurrency]] | tojson)" end' true
	jq_is 'if .suite.penalty_per_launch_ms == null or (.suite.runs[0].jobs == 1 and .suite.runs[0].verdict == "slowdown") then true
		else "a per-launch penalty beside J=1'"'"'s \(.suite.runs[0].verdict)" end' true
	! grep -E '÷ 0\.[0-9]+ =' "${r%/*}/report.md" || fail "fewer than one check at once in the report"
}

@test "analyze: the suite projection is never impossible: overlap in 1..J, no penalty from an undecided J=1" {
	mkdir -p "$D/a/raw" "$D/b/raw"
	cp "$FIXTURES/analyze/suite/conditions.txt" "$D/a/" && cp "$FIXTURES/analyze/suite/conditions.txt" "$D/b/"
	# a: J=1 undecided (differences around the floor, A1 - R1 = 3.36 ms, 0.56 a
	# launch), J=2 a clear cost of 30.5 ms: p is not taken from the undecided
	# J=1, so no overlap of 0.11 and no projection built on it
	suite_tsv "$D/a/raw/suite-t1-all.suite.tsv" 1 10 6.64 "2.5 1.3 0.7 2.9 0.2 1.6" "1 1 1 1 1 1"
	suite_tsv "$D/a/raw/suite-t2-all.suite.tsv" 2 36.5 6 "6 6 6 6 6 6" "1 1 1 1 1 1"
	run_both -0 "$BIN/analyze" --run "$D/a" --quiet
	JSON="$D/a/run.json"; jq_is '.suite.runs[0].verdict' inconclusive
	JSON="$D/a/run.json"; jq_is '.suite.penalty_per_launch_ms' null
	JSON="$D/a/run.json"; jq_is '.suite.runs[1] | [.verdict, .concurrency] | join(" ")' "slowdown "
	projection_sane "$D/a/run.json"
	grep -q 'No per-launch penalty p: at J = 1 the first-launch cost was not shown (inconclusive)' "$D/a/report.md"
	# b: J=1 p = 20 ms, J=2 twice J=1's cost: 0.5 checks at once is noise
	suite_tsv "$D/b/raw/suite-t1-all.suite.tsv" 1 132 12 "21 21 21 21 21 21" "1 1 1 1 1 1"
	suite_tsv "$D/b/raw/suite-t2-all.suite.tsv" 2 246 6 "41 41 41 41 41 41" "1 1 1 1 1 1"
	run_both -0 "$BIN/analyze" --run "$D/b" --quiet
	JSON="$D/b/run.json"; jq_is '.suite.penalty_per_launch_ms' 20
	JSON="$D/b/run.json"; jq_is '.suite.runs[1] | [.verdict, .concurrency] | join(" ")' "slowdown "
	projection_sane "$D/b/run.json"
	grep -q 'the overlap is not given: 0.50 checks at once at 2 jobs is outside 1..2' "$D/b/report.md"
	# d: one checker measured at 0.93 checks at once (J=2 cost 129 ms against
	# 120 at J=1) is one checker, noise around the bound; not "not given"
	mkdir -p "$D/d/raw" && cp "$FIXTURES/analyze/suite/conditions.txt" "$D/d/"
	cp "$D/b/raw/suite-t1-all.suite.tsv" "$D/d/raw/"
	suite_tsv "$D/d/raw/suite-t2-all.suite.tsv" 2 135 6 "22 22 22 22 22 22" "1 1 1 1 1 1"
	run_both -0 "$BIN/analyze" --run "$D/d" --quiet
	JSON="$D/d/run.json"; jq_is '.suite.runs[1] | [.verdict, .concurrency] | join(" ")' "slowdown 1"
	projection_sane "$D/d/run.json"
	grep -q '(14,000 × 129.0 ms ÷ 6; 1 check at once: 0.93 measured is noise around that bound)' "$D/d/report.md"
	! grep -q '÷ 1.00 = 14,000 × 129.0' "$D/d/report.md" || fail "an equation that does not hold"
	# and the committed suite fixtures decompose: 14,000 x 20 ms / 1 and / 4
	cp -R "$FIXTURES/analyze/suite" "$D/c"
	run_both -0 "$BIN/analyze" --run "$D/c" --quiet
	projection_sane "$D/c/run.json"
	JSON="$D/c/run.json"; jq_is '[.suite.runs[].concurrency] | join(" ")' "1 1 4"
}
