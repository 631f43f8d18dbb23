# Loaded by every test file: `load test_helper/common-setup` (or
# `load ../test_helper/common-setup` from a subfolder), then `_common_setup`.
bats_require_minimum_version 1.5.0

_common_setup() {
	bats_load_library bats-support
	bats_load_library bats-assert
	ROOT="$BATS_TEST_DIRNAME"
	while [ ! -f "$ROOT/Makefile" ] && [ "$ROOT" != / ]; do
		ROOT="$(dirname "$ROOT")"
	done
	BIN="$ROOT/micro/bin"
	FIXTURES="$ROOT/tests/fixtures"
	export ROOT BIN FIXTURES
}

# jq_get FILE FILTER: print a jq result raw (fails when jq fails or is null).
jq_get() {
	jq -er "$2" "$1"
}
