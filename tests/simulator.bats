#!/usr/bin/env bats
# The simulator and the stopping rule, unit by unit and as error rates:
# fixed arrays and fixed seeds, so every count is exact.

load test_helper/common-setup

setup_file() {
	make -C "$BATS_TEST_DIRNAME/.." -s micro/bin/unit-stop micro/bin/unit-sim micro/bin/simrate >/dev/null
}

setup() {
	_common_setup
}

@test "the stopping rule decides as its unit tests say; the simulator keeps the gate's semantics and seed" {
	# (was: "the stopping rule decides as its unit tests say, on fixed arrays")
	run -0 "$BIN/unit-stop"
	refute_output --partial "not ok"
	assert_line --regexp '^1\.\.[0-9]+$'
	# (was: "the simulator keeps the gate's semantics per kind and key, its queue and its seed")
	run -0 "$BIN/unit-sim"
	refute_output --partial "not ok"
	assert_line --regexp '^1\.\.[0-9]+$'
}

# The counts are part of the test: a change of method that moves one shows
# here, and in the diff of tests/fixtures/simrate/quick-1000.txt with its
# reason (docs/method.md, "Error rates").
@test "1000 seeded quick runs a scenario give exactly the recorded error rates, every one on target" {
	run -0 "$BIN/simrate" --runs 1000 --check
	diff -u "$FIXTURES/simrate/quick-1000.txt" - <<<"$output"
	refute_output --partial "NOT MET"
}

# make doctor's probe (looks 8, 12, 16, the extension to 128, as on Linux):
# at the floor itself any definite verdict is wrong, and stays within the
# rule's 5%; with hog-like noise it says none where 32 pairs could not
# (docs/method.md, "make doctor's probe").
@test "1000 seeded doctor probes a scenario give exactly the recorded rates, every one on target" {
	run -0 "$BIN/simrate" --doctor --runs 1000 --check
	diff -u "$FIXTURES/simrate/doctor-1000.txt" - <<<"$output"
	refute_output --partial "NOT MET"
}

@test "simrate refuses bad usage with one line and exit 2" {
	run -2 --separate-stderr "$BIN/simrate" --runs 0
	[ "${#stderr_lines[@]}" -eq 1 ]
	run -2 --separate-stderr "$BIN/simrate" --scenario nosuch
	assert_equal "$stderr" "simrate: no scenario 'nosuch' (see --help)"
	run -0 "$BIN/simrate" --help
	assert_output --partial "none-quiet"
	assert_output --partial "doctor's scenarios: none-quiet"
	run -2 --separate-stderr "$BIN/simrate" --doctor --scenario grid-2-1
	assert_equal "$stderr" "simrate: no scenario 'grid-2-1' (see --help)"
}
