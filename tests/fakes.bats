#!/usr/bin/env bats
# The identity fakes (tests/fakes/bin: id, hostname, uname -n, scutil --get,
# ioreg) that make feedback's tests put first on PATH: they replay the
# values of a state (tests/fakes/states/mac-identity, linux-identity) and
# run the real command for any other use.

load test_helper/common-setup
load test_helper/quickrun

setup() {
	_common_setup
	STATE_DIR="$ROOT/tests/fakes/states"
}

@test "the identity fakes replay their state; other uses run the real command" {
	local st="$STATE_DIR/mac-identity" b="$ROOT/tests/fakes/bin"
	run_both -0 env FAKE_STATE="$st" "$b/id" -un
	assert_output jappleseed
	run_both -0 env FAKE_STATE="$st" "$b/id" -F
	assert_output "John Appleseed"
	run_both -0 env FAKE_STATE="$st" "$b/id" -u
	# the real id -u: bash's EUID, no process
	assert_output "$EUID"
	run_both -0 env FAKE_STATE="$st" "$b/hostname"
	assert_output Johns-MacBook-Pro.local
	run_both -0 env FAKE_STATE="$st" "$b/hostname" -s
	assert_output Johns-MacBook-Pro
	run_both -0 env FAKE_STATE="$st" "$b/uname" -n
	assert_output Johns-MacBook-Pro.local
	run_both -0 env FAKE_STATE="$st" "$b/scutil" --get ComputerName
	assert_output "John’s MacBook Pro"
	run_sep env FAKE_STATE="$st" "$b/scutil" --get HostName
	assert_equal "$status" 1
	assert_equal "$output" ""
	assert_equal "$stderr" "HostName: not set"
	run_both -0 env FAKE_STATE="$st" "$b/ioreg" -rd1 -c IOPlatformExpertDevice
	assert_line '      "IOPlatformSerialNumber" = "C02XK0AAJGH5"'
	run_both -127 env FAKE_STATE="$STATE_DIR/m1-online" "$b/ioreg" -rd1 -c IOPlatformExpertDevice
	run_both -1 env FAKE_STATE="$STATE_DIR/linux-identity" "$b/id" -F
}

