#!/usr/bin/env bats
# The simulator against the kernel (issue 24, item 6): the real calibration
# gate at five settings, the simulator fitted to each run and run at the
# same settings.  Live: needs root and fanotify.

load ../test_helper/common-setup

setup() {
	_common_setup
	[ "$(uname -s)" = Linux ] || skip "the calibration gate needs Linux (fanotify)"
	[ "$(id -u)" = 0 ] || skip "the calibration gate needs root (fanotify permission events)"
	command -v jq >/dev/null 2>&1 || skip "jq is not installed (make deps-test)"
	make -C "$ROOT" -s build >/dev/null
	export TMPDIR="$BATS_TEST_TMPDIR"
}

@test "the simulator never contradicts the gate: verdicts, key, serialisation, penalties within 20% or 1 ms" {
	run sh "$ROOT/scripts/tool/simcheck"
	# the table, for the log: what each side said
	printf '# %s\n' "${lines[@]}" >&3
	[ "$status" -eq 0 ] || fail "the simulator contradicts the gate (status $status)"
	assert_line --partial "simcheck: no contradiction"
	# every setting was compared
	for s in inode path content parallel small; do
		assert_line --regexp "^$s +exe "
	done
	refute_line --regexp ' NO$'
}
