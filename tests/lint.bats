#!/usr/bin/env bats
# make lint: a script that the Mac's bash 3.2 cannot parse fails it, and
# so does a routine of the shell library defined again, each shown on a
# copy of the kit broken on purpose.

load test_helper/common-setup

setup() {
	_common_setup
	need_tool shellcheck shellcheck
	MACSIM="${EXECLAG_MACSIM:-$ROOT/../shared/macsim}"
	K="$BATS_TEST_TMPDIR/kit"
	mkdir -p "$K/scripts/tool" "$K/tests"
	cp "$ROOT/scripts/tool/lint" "$K/scripts/tool/"
}

need_bash32() {
	[ -x "$MACSIM/bin/bash" ] || skip "the Mac's bash 3.2 (../shared/macsim/bin/bash) is not here"
}

@test "an unparenthesised case pattern inside \$( ) fails make lint, naming the file and line" {
	need_bash32
	# dash and bash 5 take it; bash 3.2 ends the $( ) at the pattern's )
	printf '#!/bin/sh\nx=$(case $1 in\na) echo yes ;;\nesac)\necho "$x"\n' >"$K/scripts/bad"
	run dash "$K/scripts/bad" a
	assert_output yes
	EXECLAG_MACSIM="$MACSIM" run sh "$K/scripts/tool/lint"
	assert_failure
	assert_output --partial "scripts/bad: line 3: syntax error"
	assert_output --partial "bash 3.2 cannot parse"
	# with the pattern in parentheses, as the kit writes it, it passes
	printf '#!/bin/sh\nx=$(case $1 in\n(a) echo yes ;;\nesac)\necho "$x"\n' >"$K/scripts/bad"
	EXECLAG_MACSIM="$MACSIM" run sh "$K/scripts/tool/lint"
	assert_success
	assert_output --partial "parse with the Mac's bash 3.2.57"
	assert_output --partial "lint: no workflows in .github/workflows: nothing for actionlint"
}

@test "bash-4 forms in a bats file (mapfile, associative arrays, case conversion) fail make lint" {
	need_bash32
	for form in 'mapfile -t a <f' 'declare -A m' 'y=${x,,}' 'y=${x^^}'; do # lint: bash-4 as data
		printf '@test "x" {\n\t%s\n}\n' "$form" >"$K/tests/t.bats"
		EXECLAG_MACSIM="$MACSIM" run sh "$K/scripts/tool/lint"
		assert_failure
		assert_output --partial "tests/t.bats:2:"
		assert_output --partial "bash-4 forms"
	done
	printf '@test "x" {\n\twhile read -r l; do a+=("$l"); done <f\n}\n' >"$K/tests/t.bats"
	EXECLAG_MACSIM="$MACSIM" run sh "$K/scripts/tool/lint"
	assert_success
}

@test "source rules: untyped objc_msgSend, other dlopen flags, libproc.h, a header read by repro fail lint" {
	mkdir -p "$K/micro/plat"
	cp "$ROOT/micro/plat/devtools_objc.c" "$ROOT/micro/plat/responsible_dl.c" "$K/micro/plat/"
	cp "$ROOT/scripts/repro" "$K/scripts/"
	cp "$ROOT/Makefile" "$K/"
	EXECLAG_MACSIM="$MACSIM" run sh "$K/scripts/tool/lint"
	assert_success
	assert_output --partial "lint: 6 source rules hold"
	# each break alone fails, naming the file and why
	o="$K/micro/plat/devtools_objc.c"
	cp "$o" "$o.orig"
	sed 's/((devtools_msg_status)api->msg_send)(tool, sel_status)/api->msg_send(tool, sel_status)/' "$o.orig" >"$o"
	EXECLAG_MACSIM="$MACSIM" run sh "$K/scripts/tool/lint"
	assert_failure
	assert_output --partial "micro/plat/devtools_objc.c: objc_msgSend called without a type of its own"
	sed 's/dlopen(ep_path, RTLD_LAZY | RTLD_LOCAL)/dlopen(ep_path, RTLD_NOW)/' "$o.orig" >"$o"
	EXECLAG_MACSIM="$MACSIM" run sh "$K/scripts/tool/lint"
	assert_failure
	assert_output --partial "micro/plat/devtools_objc.c: a library opened other than RTLD_LAZY | RTLD_LOCAL"
	mv "$o.orig" "$o"
	printf '#include <libproc.h>\n' >>"$K/micro/plat/responsible_dl.c"
	EXECLAG_MACSIM="$MACSIM" run sh "$K/scripts/tool/lint"
	assert_failure
	assert_output --partial "micro/plat/responsible_dl.c: libproc by its header"
	cp "$ROOT/micro/plat/responsible_dl.c" "$K/micro/plat/"
	printf 'x=$(sed -n "s/^#define MIN_PAIRS //p" micro/stats/thresholds.h)\n' >>"$K/scripts/repro"
	EXECLAG_MACSIM="$MACSIM" run sh "$K/scripts/tool/lint"
	assert_failure
	assert_output --partial "scripts/repro: repro reads a header"
}

@test "a routine of scripts/lib defined again (fail, a median) fails make lint, naming the file and line" {
	# the kit's scripts, library, checks and tests as they are: clean
	cp -R "$ROOT/scripts" "$ROOT/checks" "$ROOT/bin" "$K/"
	mkdir -p "$K/tests/live"
	cp "$ROOT"/tests/*.bats "$K/tests/"
	cp "$ROOT"/tests/live/*.bats "$K/tests/live/"
	cp -R "$ROOT/tests/test_helper" "$K/tests/"
	EXECLAG_MACSIM="$BATS_TEST_TMPDIR/none" run sh "$K/scripts/tool/lint"
	assert_success
	assert_output --partial "lint: no routine of scripts/lib is defined again"
	# a script that refuses a value with a fail() of its own
	printf '#!/bin/sh\nfail() { echo "x: $*" >&2; exit 2; }\nfail no\n' >"$K/scripts/probe/extra"
	EXECLAG_MACSIM="$BATS_TEST_TMPDIR/none" run sh "$K/scripts/tool/lint"
	assert_failure
	assert_output --partial "scripts/probe/extra:2:fail() {"
	assert_output --partial "routines of scripts/lib defined again above"
	rm "$K/scripts/probe/extra"
	# a test with a median of its own
	printf '@test "x" {\n\t:\n}\nmedian() { sort -n | awk 1; }\n' >"$K/tests/extra.bats"
	EXECLAG_MACSIM="$BATS_TEST_TMPDIR/none" run sh "$K/scripts/tool/lint"
	assert_failure
	assert_output --partial "tests/extra.bats:4:median() {"
	# one marked as a copy kept on purpose passes
	printf '@test "x" {\n\t:\n}\nmedian() { # lint: own copy (a test of the median)\n\tsort -n\n}\n' >"$K/tests/extra.bats"
	EXECLAG_MACSIM="$BATS_TEST_TMPDIR/none" run sh "$K/scripts/tool/lint"
	assert_success
}
