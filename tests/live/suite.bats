#!/usr/bin/env bats
# The suite case on real launches: on plain Linux its first runs cost
# nothing measurable (run again once when noise shows a cost); under the
# calibration gate the gate's latency shows up in the fresh pass and as the
# projection's per-launch penalty; sequential stopping decides on real
# timings.  The suite's shape, signals, refusals and analyze on fixtures are
# make test's (tests/suite.bats).

load ../test_helper/common-setup

M=20       # programs per set: small, so the file stays quick
LAT=50     # gate latency, ms: large beside compile-time noise on a busy machine

setup_file() {
	_common_setup
	make -C "$ROOT" -s build >/dev/null
	gate_probe
	export RUNS="$BATS_FILE_TMPDIR/runs"
	mkdir -p "$RUNS"
	[ "$(uname -s)" = Linux ] || return 0
	repro_run plain --cases suite --count "$M" --threads 1,2
	# Other work on a shared machine can slow a whole pass (tens of ms) and
	# look like a cost; a control that shows one is run once more, and says so.
	if [ "$(jq '[.suite.runs[] | select(.verdict == "slowdown" or .launch_penalty_ms.median >= 1)] | length' \
		"$RUNS"/plain/*/run.json 2>/dev/null)" != 0 ]; then
		mv "$RUNS/plain" "$RUNS/plain-noisy"
		repro_run plain --cases suite --count "$M" --threads 1,2
	fi
	[ -z "$GATE_SKIP" ] || return 0
	repro_run serial --gate "latency=$LAT workers=1 key=inode" --cases suite --count "$M" --threads 1,2
	repro_run two --gate "latency=$LAT workers=2 key=inode" --cases suite --count "$M" --threads 2
}

setup() {
	_common_setup
	RUNS="$BATS_FILE_TMPDIR/runs"
	D="$BATS_TEST_TMPDIR"
}

need_linux() { [ "$(uname -s)" = Linux ] || skip "the plain control and the gate are Linux"; }
need_gate() { [ -z "$GATE_SKIP" ] || skip "$GATE_SKIP"; }

json_of() { ls "$RUNS/$1"/*/run.json 2>/dev/null | head -n 1; }

# suite_field RUN J JQ: one value of the suite at J jobs
suite_field() { jq -r --argjson j "$2" ".suite.runs[] | select(.jobs == \$j) | $3" "$(json_of "$1")"; }

# The fresh pass's wall time beyond its compiles (each job's share of them),
# so a change in compile speed between two runs does not count.
fresh_beyond_compiles() {
	suite_field "$1" "$2" '.passes.fresh.wall_ms - .passes.fresh.compile_sum_ms / .jobs'
}

# within VALUE TRUTH FRACTION: |value - truth| <= fraction * truth
within() {
	awk -v v="$1" -v t="$2" -v f="$3" 'BEGIN { d = v - t; if (d < 0) d = -d; exit !(d <= f * t) }'
}

@test "plain Linux: first runs alone and re-runs agree within noise, and no projection is made" {
	need_linux
	r=$(json_of plain)
	[ -f "$r" ] || fail "no run.json: $(tail -n 3 "$RUNS/plain.out")"
	[ ! -d "$RUNS/plain-noisy" ] || echo "# the first plain run was noisy and was run once more" >&3
	assert_equal "$(jq -r '.suite.runs | length' "$r")" 2
	for j in 1 2; do
		v=$(suite_field plain "$j" .verdict)
		med=$(suite_field plain "$j" .launch_penalty_ms.median)
		low=$(suite_field plain "$j" .launch_penalty_ms.ci_low)
		echo "# plain J=$j: alone - re-run $med ms a launch, interval low $low ms, $v" >&3
		[ "$v" != slowdown ]
		awk -v m="$med" -v l="$low" 'BEGIN { exit !(m < 1 && l < 1) }'
		assert_equal "$(suite_field plain "$j" .projection_min)" null
	done
	grep -q 'no measurable first-launch cost' "$(dirname "$r")/report.md"
	grep -q '^suite J=1 .*no measurable first-launch cost' "$RUNS/plain.out"
}

@test "gate: the per-launch penalty of the projection is within 20% of the gate's latency" {
	need_gate
	p=$(jq -r '.suite.penalty_per_launch_ms' "$(json_of serial)")
	echo "# gate latency $LAT ms: per-launch penalty $p ms" >&3
	within "$p" "$LAT" 0.2
	# and the first runs alone show M x latency / min(J, workers) at every J
	for spec in "serial 1 1" "serial 2 1" "two 2 2"; do
		set -- $spec
		e=$(suite_field "$1" "$2" .first_launch_cost_ms)
		want=$((M * LAT / ($2 < $3 ? $2 : $3)))
		echo "# $1 J=$2: first runs alone - re-run $e ms, expected $want ms" >&3
		within "$e" "$want" 0.2
		assert_equal "$(suite_field "$1" "$2" .verdict)" slowdown
	done
}

@test "gate: the fresh pass slows by about M x latency / min(J, workers)" {
	need_gate
	for spec in "serial 1 1" "two 2 2"; do
		set -- $spec
		gated=$(fresh_beyond_compiles "$1" "$2")
		plain=$(fresh_beyond_compiles plain "$2")
		slow=$(awk -v g="$gated" -v p="$plain" 'BEGIN { print g - p }')
		want=$((M * LAT / ($2 < $3 ? $2 : $3)))
		echo "# $1 J=$2 workers=$3: fresh pass slower by $slow ms beyond compiles, expected $want ms" >&3
		within "$slow" "$want" 0.25
	done
	# with more jobs than workers the queue hides behind other jobs' compiles:
	# the fresh pass loses no more than M x latency / workers
	gated=$(fresh_beyond_compiles serial 2)
	plain=$(fresh_beyond_compiles plain 2)
	awk -v g="$gated" -v p="$plain" -v w="$((M * LAT))" 'BEGIN { exit !(g - p <= 1.25 * w) }'
}

@test "gate: the projection names its formula and the serialised checks" {
	need_gate
	r=$(json_of serial)
	md="$(dirname "$r")/report.md"
	grep -q 'X_J = N × p ÷ s_J = N × (A_J − R_J) ÷ M' "$md"
	grep -Eq 'J=2: a suite of 14,000 programs at 2 jobs would spend at least [0-9.]+ minutes in first-launch checks' "$md"
	# one checker: the checks did not overlap at J=2
	s=$(suite_field serial 2 .concurrency)
	echo "# workers=1, J=2: overlap of checks x$s" >&3
	awk -v s="$s" 'BEGIN { exit !(s < 1.3) }'
	# the minutes are N x (A - R) / M
	e=$(suite_field serial 2 .first_launch_cost_ms)
	x=$(suite_field serial 2 .projection_min)
	awk -v e="$e" -v x="$x" -v m="$M" 'BEGIN { want = 14000 * e / m / 60000; d = x - want; exit !(d < 0.01 && d > -0.01) }'
	grep -q 'calibration gate' "$md"
}

@test "a run leaves no program, source or binary behind" {
	need_linux
	assert_equal "$(find "$RUNS/plain.tmp" -mindepth 1 | wc -l | tr -d ' ')" 0
	if [ -z "$GATE_SKIP" ]; then
		assert_equal "$(find "$RUNS/serial.tmp" "$RUNS/two.tmp" -mindepth 1 | wc -l | tr -d ' ')" 0
	fi
}

meta() { awk -F '\t' -v k="$2" '$1 == "meta" && $2 == k { print $3 }' "$1"; }

@test "micro/suite --sequential: no first-launch cost stops as none before M or runs to M, never a slowdown" {
	# checked chunk by chunk
	mkdir -p "$D/w"
	# an early look stops on none only when every pair so far lies below
	# the floor (docs/method.md): one noisy program among the first 8
	# carries it on, to M at worst
	for try in 1 2 3; do
		run -0 "$BIN/suite" --dir "$D/w" --count 40 --jobs 2 --sequential --quiet --out "$D/s.tsv" --prefix t
		[ "$(meta "$D/s.tsv" stopped)" = none ] && break
		echo "# no cost: not certain on try $try ($(meta "$D/s.tsv" m) programs, $(meta "$D/s.tsv" stopped)): a pair at or above the floor at each early look" >&3
	done
	assert_equal "$(meta "$D/s.tsv" looks)" 8,15,22,29,36,40
	assert_equal "$(meta "$D/s.tsv" planned)" 40
	m=$(meta "$D/s.tsv" m)
	case $(meta "$D/s.tsv" stopped) in
	none) [ "$m" -lt 40 ] || fail "stopped as none after all 40" ;;
	maximum) assert_equal "$m" 40 ;;
	*) fail "no cost, yet stopped: $(meta "$D/s.tsv" stopped)" ;;
	esac
	# every pass covers the programs run, no more
	for p in fresh rerun build alone; do
		assert_equal "$(grep -c "^sample	$p	" "$D/s.tsv")" "$m"
		assert_equal "$(awk -F '\t' -v p="$p" '$1 == "pass" && $2 == p { print $6 }' "$D/s.tsv")" "$m"
	done
	assert_equal "$(find "$D/w" -mindepth 1 | wc -l | tr -d ' ')" 0
}

@test "gate: the suite with sequential stopping stops at its first look, and analyze says so" {
	need_linux
	[ -z "$GATE_SKIP" ] || skip "$GATE_SKIP"
	local r
	r=$(repro_run seq --gate "latency=$LAT workers=1 key=inode" --cases suite --count "$M" --threads 1 --sequential 1)
	jq -e '.suite.runs[0].sequential == {"looks": "8,12,16,20", "planned": 20, "launched": 8, "stopped": "slowdown"}' "$r/run.json" >/dev/null ||
		fail "$(jq -c '.suite.runs[0].sequential' "$r/run.json")"
	assert_equal "$(jq -r '.suite.runs[0].programs' "$r/run.json")" 8
	assert_equal "$(jq -r '.suite.runs[0].verdict' "$r/run.json")" slowdown
	[[ "$(jq -r '.suite.runs[0].reason' "$r/run.json")" == *"(a 99.22% interval: look 1 of 4; 8 of 20 programs, stopped: slowdown certain)" ]] ||
		fail "$(jq -r '.suite.runs[0].reason' "$r/run.json")"
	validate_run_json "$r/run.json"
}
