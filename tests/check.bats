#!/usr/bin/env bats
# scripts/check (make check): what it says of a run, pattern by pattern.

load test_helper/common-setup

setup_file() {
	make -C "$BATS_TEST_DIRNAME/.." -s micro/bin/analyze >/dev/null
}

setup() {
	_common_setup
	D="$BATS_TEST_TMPDIR"
	# plain Linux, no penalty anywhere: exe, exe-hardlink, exe-copy, exe-rewrite
	cp -R "$FIXTURES/analyze/key-nopenalty" "$D/run"
	"$BIN/analyze" --run "$D/run" --quiet
}

# with_verdict CASE VERDICT: the run's run.json with one case's verdict changed
with_verdict() {
	jq --arg c "$1" --arg v "$2" '(.cases[] | select(.name == $c) | .verdict) = $v' \
		"$D/run/run.json" >"$D/run/run.json.new" && mv "$D/run/run.json.new" "$D/run/run.json"
}

@test "a key matching the expected one with inconclusive cases: P3 holds, with N inconclusive cases, said plainly" {
	run -0 sh "$ROOT/scripts/check" --run "$D/run"
	assert_line --regexp "^P3 cache key +holds$"
	with_verdict exe-copy inconclusive
	with_verdict exe-rewrite inconclusive
	run -0 sh "$ROOT/scripts/check" --run "$D/run"
	assert_line --regexp "^P3 cache key +holds, with 2 inconclusive cases$"
	assert_output --partial "exe-copy: penalty"
	assert_output --partial "inconclusive: run again on a quieter machine"
	assert_line "1 hold, 0 do not hold, 6 not applicable"
}

@test "a wrong definite verdict still does not hold" {
	with_verdict exe-copy slowdown
	run -1 sh "$ROOT/scripts/check" --run "$D/run"
	assert_line --regexp "^P3 cache key +DOES NOT HOLD$"
}
