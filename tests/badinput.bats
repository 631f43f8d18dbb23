#!/usr/bin/env bats
# Bad input and hostile conditions across the kit (issue 11, item 8): each
# gets one clear line on stderr, never a raw message of a tool underneath.

load test_helper/common-setup

setup() {
	_common_setup
	D="$BATS_TEST_TMPDIR"
	mkdir -p "$D/tmp"
	export TMPDIR="$D/tmp"
}

# Every script with options: an unknown one is refused before any work.
SCRIPTS="bench sensitivity bench-aggregate hfcheck sysinfo logs daemons check cross lint feedback repro"

@test "every script refuses an unknown option with one line and exit 2, and answers --help" {
	for s in $SCRIPTS; do
		case $s in
		logs) args="excerpt --bogus" ;;
		*) args="--bogus" ;;
		esac
		# shellcheck disable=SC2086
		run --separate-stderr sh "$ROOT/scripts/$s" $args </dev/null
		assert_equal "$s $status" "$s 2"
		assert_equal "$s: $(printf '%s\n' "$stderr" | wc -l | tr -d ' ')" "$s: 1"
		[[ "$stderr" == *"--bogus"* ]] || fail "$s: $stderr"
		assert_equal "$s: $output" "$s: "
		assert_equal "$s: $(find "$D/tmp" -mindepth 1 | wc -l | tr -d ' ')" "$s: 0"
		run --separate-stderr sh "$ROOT/scripts/$s" --help </dev/null
		assert_equal "$s $status" "$s 0"
		[[ "$output" == *usage* ]] || fail "$s --help: $output"
	done
}
