#!/usr/bin/env bats
# make remedies (issue 42): the kill rate's exact interval (the unit test
# of micro/stats/killrate.c, its known values from docs/remedies.md).

load test_helper/common-setup

setup_file() {
	make -C "$BATS_TEST_DIRNAME/.." -s micro/bin/unit-killrate >/dev/null
}

setup() {
	_common_setup
}

@test "the kill rate's Clopper-Pearson interval at known values, and its words" {
	run -0 "$BIN/unit-killrate"
	refute_output --partial "not ok"
	assert_line --regexp '^1\.\.[0-9]+$'
}

@test "0 kills of 3,840 say at most 0.08%, never never; 5 of 3,840 the two-sided 0.04-0.31%" {
	run -0 "$BIN/unit-killrate" 0 3840
	assert_output "at most 0.08%"
	run -0 "$BIN/unit-killrate" 5 3840
	assert_output "0.04–0.31%"
}
