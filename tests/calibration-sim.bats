#!/usr/bin/env bats
# The kit against the simulator's known truth (the deterministic half of
# tests/live/calibration.bats): runs on the seeded model must show exactly
# what it was set to do -- each cache key, a queue, parallel checks, an
# exempt launcher, a check that grows with size -- the same on every run.

load test_helper/common-setup

# sim_run NAME SETTINGS ARGS...: the kit on the simulator (2 CPUs, seed 7)
# into $RUNS/NAME; prints the run folder
sim_run() {
	local name=$1 settings=$2
	shift 2
	mkdir -p "$RUNS/$name"
	TMPDIR="$RUNS/$name.tmp" RESULTS="$RUNS/$name" sh "$ROOT/scripts/repro" \
		--launcher "sim:$settings cpus=2 seed=7" "$@" >"$RUNS/$name.log" 2>&1 3>&- ||
		{ cat "$RUNS/$name.log" >&2; return 1; }
}

setup_file() {
	_common_setup
	make -C "$ROOT" -s build >/dev/null
	export RUNS="$BATS_FILE_TMPDIR/runs"
	mkdir -p "$RUNS"
	local k
	# every case but the suite, which the patterns do not read (its
	# compiles would cost a minute)
	CASES=script,script-via-sh,exe,exe-copy,exe-hardlink,exe-rewrite,system-copy,dylib
	export CASES
	for k in inode path content; do
		mkdir -p "$RUNS/$k.tmp"
		sim_run "$k" "latency=20 workers=1 key=$k" --threads 1,2
	done
	mkdir -p "$RUNS/exempt.tmp" "$RUNS/parallel.tmp" "$RUNS/size.tmp" "$RUNS/queue.tmp"
	sim_run exempt 'latency=20 workers=1 key=inode exempt=1' --threads 1,2
	unset CASES
	sim_run parallel 'latency=20 workers=2 key=inode' --cases exe --threads 1,2
	sim_run queue 'latency=150 workers=1 key=inode' --cases exe --threads 1,2
	sim_run size 'latency=5 per_mb=2 workers=1 key=inode' --cases exe,exe-hardlink --threads 1 \
		--sizes 16k,1m,8m
}

setup() {
	_common_setup
	RUNS="$BATS_FILE_TMPDIR/runs"
}

run_of() { ls -d "$RUNS/$1"/*/ | head -n 1; }

# patterns_hold RUN: every applicable pattern of make check holds
patterns_hold() {
	run sh "$ROOT/scripts/check" --run "$1"
	printf '%s\n' "$output" | sed 's/^/# /' >&3
	assert_success
	refute_output --partial "DOES NOT HOLD"
}

field() { jq -r --arg c "$2" ".cases[] | select(.name == \$c) | $3" "$1/run.json"; }

@test "each cache key: every applicable pattern holds and the key inferred is the model's" {
	local k r
	for k in inode path content; do
		r=$(run_of "$k")
		assert_equal "$(jq -r '.inferred.cache_key' "$r/run.json")" "$k"
		patterns_hold "$r"
		assert_equal "$(field "$r" exe .verdict)" slowdown
		assert_equal "$(field "$r" script-via-sh .verdict)" none
	done
	r=$(run_of inode)
	assert_equal "$(field "$r" exe-hardlink .verdict)" none
	assert_equal "$(field "$r" exe-copy .verdict)" slowdown
	r=$(run_of path)
	assert_equal "$(field "$r" exe-rewrite .verdict)" none
	assert_equal "$(field "$r" exe-hardlink .verdict)" slowdown
	r=$(run_of content)
	assert_equal "$(field "$r" exe-copy .verdict)" none
	assert_equal "$(field "$r" exe-rewrite .verdict)" none
}

@test "one worker: the first launches queue, serialised; two: parallel" {
	local r
	r=$(run_of inode)
	assert_equal "$(field "$r" exe .serialisation)" serialised
	r=$(run_of parallel)
	assert_equal "$(field "$r" exe .serialisation)" parallel
	[[ "$(field "$r" exe .serialisation_reason)" == *"checks run in parallel"* ]]
}

@test "150 ms serialised: T=1 stops at its first look, T=2 after 8 rounds, the estimate within 5%" {
	local r
	r=$(run_of queue)
	assert_equal "$(jq -r '.cases[0].configs[] | "\(.threads) \(.sequential.launched) \(.sequential.stopped)"' "$r/run.json")" \
		"$(printf '1 8 slowdown\n2 16 slowdown')"
	jq -e '.cases[0].penalty_ms.median | . > 142.5 and . < 157.5' "$r/run.json" >/dev/null
	[[ "$(field "$r" exe .reason)" == *"(a 99.22% interval: look 1 of 4)" ]]
	grep -qF -- '- exe T=1 all: 8 of 20 artifacts (looks at 8,12,16,20+40,60), stopped: slowdown certain.' "$r/report.md"
}

@test "an exempt launcher: no case has a penalty, and P7 holds" {
	local r
	r=$(run_of exempt)
	assert_equal "$(jq -r '[.cases[] | select(.verdict == "slowdown")] | length' "$r/run.json")" 0
	patterns_hold "$r"
	assert_line --regexp '^P7 .*holds'
}

@test "per_mb=2: the penalty grows 2 ms per MiB of the program, within 20%; a hard link is none" {
	local r
	r=$(run_of size)
	assert_equal "$(field "$r" exe '.size_slopes[0].sizes')" 3
	assert_equal "$(field "$r" exe '.size_slopes[0].verdict')" slowdown
	jq -e --arg c exe '.cases[] | select(.name == $c) | .size_slopes[0].ms_per_mib | . > 1.6 and . < 2.4' \
		"$r/run.json" >/dev/null
	assert_equal "$(field "$r" exe-hardlink .verdict)" none
	grep -q '>exe, 8 MiB<' "$r/plot-launch.svg"
	grep -q 'Size (T=1, class all): slowdown — the penalty grows' "$r/report.md"
}

@test "every run says it is simulated, and none is a gate's" {
	local d
	for d in "$RUNS"/*/*/; do
		grep -q '^launcher=sim:' "$d/conditions.txt"
		grep -q '^gate.active=0$' "$d/conditions.txt"
		grep -qi 'simulated' "$d/report.md"
	done
}
