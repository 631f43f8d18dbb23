# kit.bash - loaded by make check's patterns and exercises (through
# pattern/lib.bash) and by the kit's own tests (tests/test_helper): bats'
# assertions, and where the kit is.
#   kit_setup   loads bats-support and bats-assert; sets and exports ROOT
#               (the folder holding the Makefile, found upwards from the
#               test file's own) and BIN (ROOT/micro/bin)
bats_require_minimum_version 1.5.0

kit_setup() {
	bats_load_library bats-support
	bats_load_library bats-assert
	ROOT="$BATS_TEST_DIRNAME"
	while [ ! -f "$ROOT/Makefile" ] && [ "$ROOT" != / ]; do
		ROOT="$(dirname "$ROOT")"
	done
	BIN="$ROOT/micro/bin"
	export ROOT BIN
}
