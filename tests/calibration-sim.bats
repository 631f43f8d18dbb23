#!/usr/bin/env bats
# The kit against the simulator's known truth (the deterministic half of
# tests/live/calibration.bats): runs on the seeded model must show exactly
# what it was set to do -- each cache key, a queue, parallel checks, an
# exempt launcher, a check that grows with size -- the same on every run.

load test_helper/common-setup
load test_helper/jqbatch
load test_helper/quickrun

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
	# T=2 in the inode run only: the queue of one worker (P4, and the
	# serialisation test) does not depend on the key, and an exempt
	# launcher has no penalty to queue (P4 does not apply to it at any T)
	mkdir -p "$RUNS/inode.tmp"
	sim_run inode "latency=20 workers=1 key=inode" --threads 1,2
	for k in path content; do
		mkdir -p "$RUNS/$k.tmp"
		sim_run "$k" "latency=20 workers=1 key=$k" --threads 1
	done
	mkdir -p "$RUNS/exempt.tmp" "$RUNS/parallel.tmp" "$RUNS/size.tmp" "$RUNS/queue.tmp"
	sim_run exempt 'latency=20 workers=1 key=inode exempt=1' --threads 1
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

# run_of NAME: r, the run folder of $RUNS/NAME (its first, as ls -d sorts)
run_of() {
	local d
	for d in "$RUNS/$1"/*/; do r=$d; return 0; done
}

# patterns_hold RUN: every applicable pattern of make check holds
patterns_hold() {
	local l
	run_both sh "$ROOT/scripts/check" --run "$1"
	while IFS= read -r l; do printf '# %s\n' "$l"; done <<<"$output" >&3
	assert_success
	refute_output --partial "DOES NOT HOLD"
}

# field_is RUN CASE PATH WANT: CASE's PATH (a jq path) in RUN's run.json is
# WANT, asked with the test's other such values by one jq
# (test_helper/jqbatch.bash); what is left is asked at the test's end
field_is() {
	JSON="$1/run.json"
	jq_is ".cases[] | select(.name == \"$2\") | $3" "$4"
}
teardown() { jq_flush; }

@test "each cache key: every applicable pattern holds and the key inferred is the model's" {
	local k r
	for k in inode path content; do
		run_of "$k"
		JSON="$r/run.json"; jq_is .inferred.cache_key "$k"
		patterns_hold "$r"
		field_is "$r" exe .verdict slowdown
		field_is "$r" script-via-sh .verdict none
	done
	run_of inode
	field_is "$r" exe-hardlink .verdict none
	field_is "$r" exe-copy .verdict slowdown
	run_of path
	field_is "$r" exe-rewrite .verdict none
	field_is "$r" exe-hardlink .verdict slowdown
	run_of content
	field_is "$r" exe-copy .verdict none
	field_is "$r" exe-rewrite .verdict none
}

@test "one worker: serialised, two: parallel; 150 ms: T=1 stops at look 1, T=2 after 8 rounds, within 5%" {
	# (was: "one worker: the first launches queue, serialised; two: parallel")
	local r
	run_of inode
	field_is "$r" exe .serialisation serialised
	run_of parallel
	field_is "$r" exe .serialisation parallel
	field_is "$r" exe '.serialisation_reason | contains("checks run in parallel")' true
	# (was: "150 ms serialised: T=1 stops at its first look, T=2 after 8 rounds, the estimate within 5%")
	local r
	run_of queue
	JSON="$r/run.json"
	jq_is '.cases[0].configs[] | "\(.threads) \(.sequential.launched) \(.sequential.stopped)"' \
		"$(printf '1 8 slowdown\n2 16 slowdown')"
	jq_is '.cases[0].penalty_ms.median | . > 142.5 and . < 157.5' true
	field_is "$r" exe '.reason | endswith("(a 99.22% interval: look 1 of 4)")' true
	grep -qF -- '- exe T=1 all: 8 of 20 artifacts (looks at 8,12,16,20+40,60), stopped: slowdown certain.' "$r/report.md"
}

@test "an exempt launcher: no case has a penalty, and P7 holds" {
	local r
	run_of exempt
	JSON="$r/run.json"; jq_is '[.cases[] | select(.verdict == "slowdown")] | length' 0
	patterns_hold "$r"
	assert_line --regexp '^P7 .*holds'
}

@test "per_mb=2: the penalty grows 2 ms per MiB, within 20%, a hard link none; every run says simulated" {
	# (was: "per_mb=2: the penalty grows 2 ms per MiB of the program, within 20%; a hard link is none")
	local r
	run_of size
	field_is "$r" exe '.size_slopes[0].sizes' 3
	field_is "$r" exe '.size_slopes[0].verdict' slowdown
	field_is "$r" exe '.size_slopes[0].ms_per_mib | . > 1.6 and . < 2.4' true
	field_is "$r" exe-hardlink .verdict none
	grep -q '>exe, 8 MiB<' "$r/plot-launch.svg"
	grep -q 'Size (T=1, class all): slowdown — the penalty grows' "$r/report.md"
	# (was: "every run says it is simulated, and none is a gate's")
	# (the files read and matched by the shell, not by a grep each)
	local d c m
	for d in "$RUNS"/*/*/; do
		c="" m=""
		IFS= read -r -d '' c <"$d/conditions.txt" || :
		IFS= read -r -d '' m <"$d/report.md" || :
		[[ $'\n'"$c" == *$'\n'launcher=sim:* ]] || fail "$d: no launcher=sim"
		[[ $'\n'"$c"$'\n' == *$'\n'gate.active=0$'\n'* ]] || fail "$d: no gate.active=0"
		shopt -s nocasematch
		[[ "$m" == *simulated* ]] || { shopt -u nocasematch; fail "$d: report.md does not say simulated"; }
		shopt -u nocasematch
	done
}
