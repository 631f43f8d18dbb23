#!/usr/bin/env bats
# hyperfine as a second instrument, against the C harness on real launches:
# on plain Linux the two agree within the stated tolerance, and under the
# calibration gate both see the penalty.  Its version gate, its refusals,
# an interrupt and the comparison on fixtures are make test's
# (tests/hyperfine.bats).

load ../test_helper/common-setup

setup_file() {
	_common_setup
	make -C "$ROOT" -s build >/dev/null
	gate_probe
	export RUNS="$BATS_FILE_TMPDIR/runs"
	mkdir -p "$RUNS"
	command -v hyperfine >/dev/null 2>&1 || return 0
	[ "$(uname -s)" = Linux ] || return 0
	repro_run_agreeing plain --cases exe,script --threads 1
	[ -z "$GATE_SKIP" ] || return 0
	repro_run_agreeing gate --gate 'latency=20 workers=1 key=inode' --cases exe,script --threads 1
}

# The same, run again (up to three runs in all) while the two instruments
# disagree: other work on a shared machine can slow one instrument's pass
# by milliseconds.  Each disagreeing run is kept as NAME-noisyN, and the
# test says so.
repro_run_agreeing() {
	local name=$1 try
	repro_run "$@"
	for try in 1 2; do
		[ "$(jq -r '.hyperfine.agree' "$RUNS/$name"/*/run.json 2>/dev/null)" != true ] || return 0
		mv "$RUNS/$name" "$RUNS/$name-noisy$try"
		repro_run "$@"
	done
}

# noisy_note NAME: say on fd 3 when a run had to be repeated, and why
noisy_note() {
	local j try
	for try in 1 2; do
		j=$(ls "$RUNS/$1-noisy$try"/*/run.json 2>/dev/null | head -n 1)
		[ -n "$j" ] || return 0
		echo "# $1 run $try disagreed and was run again: $(jq -r '[.hyperfine.cases[] | .case + ": " + .reason] | join("; ")' "$j")" >&3
	done
}

setup() {
	_common_setup
	RUNS="$BATS_FILE_TMPDIR/runs"
	D="$BATS_TEST_TMPDIR"
}

need_hyperfine() { need_tool hyperfine hyperfine; }
need_linux() { [ "$(uname -s)" = Linux ] || skip "the plain control and the gate are Linux"; }
need_gate() { [ -z "$GATE_SKIP" ] || skip "$GATE_SKIP"; }

json_of() { ls "$RUNS/$1"/*/run.json 2>/dev/null | head -n 1; }

# hf RUN CASE JQ: one value of the cross-check of a case
hf() { jq -r --arg c "$2" ".hyperfine.cases[] | select(.case == \$c) | $3" "$(json_of "$1")"; }

@test "plain Linux: hyperfine and the C harness agree within the stated tolerance" {
	need_hyperfine
	need_linux
	r=$(json_of plain)
	[ -f "$r" ] || fail "no run.json: $(tail -n 3 "$RUNS/plain.out")"
	noisy_note plain
	assert_equal "$(jq -r '.hyperfine.status' "$r")" done
	assert_equal "$(jq -r '.hyperfine.version' "$r")" "$(hyperfine --version | awk '{ print $2 }')"
	# no penalty certain: all 20 runs (hyperfine's unpaired medians need
	# them to tell none), however early the harness stopped
	need=20
	assert_equal "$(jq -r '.hyperfine.runs' "$r")" "$need"
	for c in exe script; do
		echo "# $c: hyperfine first $(hf plain $c .first_median_ms) repeat $(hf plain $c .repeat_median_ms);" \
			"harness first $(hf plain $c .harness.first_median_ms) repeat $(hf plain $c .harness.repeat_median_ms) ms" >&3
		assert_equal "$(hf plain $c .agree)" true || fail "$c: $(hf plain $c .reason)"
		assert_equal "$(hf plain $c .penalty_seen)" false
		assert_equal "$(hf plain $c .first_runs)" "$need"
		[ -s "$(dirname "$r")/raw/hyperfine-$c-first.json" ]
		[ -s "$(dirname "$r")/raw/hyperfine-$c-repeat.json" ]
	done
	assert_equal "$(jq -r '.hyperfine.agree' "$r")" true
	grep -q 'larger of 25% of the harness.s value and 1 ms, plus both instruments. noise' "$(dirname "$r")/report.md"
	grep -q '^hyperfine exe: .*: agree$' "$RUNS/plain.out"
	[ -n "$(schema_skip_reason)" ] || run -0 validate_run_json "$r"
}

@test "gate: hyperfine and the harness both see the penalty, and agree" {
	need_hyperfine
	need_gate
	r=$(json_of gate)
	noisy_note gate
	for c in exe script; do
		p=$(hf gate $c .penalty_ms)
		h=$(hf gate $c .harness.penalty_ms)
		echo "# gate 20 ms, $c: hyperfine penalty $p ms, harness $h ms" >&3
		assert_equal "$(hf gate $c .penalty_seen)" true
		awk -v p="$p" -v h="$h" 'BEGIN { exit !(p > 15 && p < 25 && h > 15 && h < 25) }'
		assert_equal "$(hf gate $c .agree)" true || fail "$c: $(hf gate $c .reason)"
	done
	grep -q '## hyperfine cross-check' "$(dirname "$r")/report.md"
	# the gate held hyperfine's first runs: one miss per run, at the same path
	n=$(jq -r 'select(.result == "miss" and .event == "exec" and (.object | endswith("/hf-exe-run"))) | .object' \
		"$(dirname "$r")/gate.log" | wc -l | tr -d ' ')
	echo "# the gate held $n first launches of hf-exe-run" >&3
	# as many as the harness needed: exe and script at T=1 stopped at their
	# first look, a slowdown certain
	assert_equal "$(jq -r '.hyperfine.runs' "$r")" 8
	[ "$n" -ge 8 ]
}
