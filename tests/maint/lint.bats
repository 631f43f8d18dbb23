#!/usr/bin/env bats
# make lint: a script that the Mac's bash 3.2 cannot parse fails it, and so
# does a source that breaks one of its rules, or a routine of the shell
# library defined again (each broken in a copy of the kit).

load ../test_helper/common-setup

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
	EXECLAG_MACSIM="$MACSIM" run sh "$K/scripts/tool/lint" --only bash32,workflows
	assert_failure
	assert_output --partial "scripts/bad: line 3: syntax error"
	assert_output --partial "bash 3.2 cannot parse"
	# with the pattern in parentheses, as the kit writes it, it passes
	printf '#!/bin/sh\nx=$(case $1 in\n(a) echo yes ;;\nesac)\necho "$x"\n' >"$K/scripts/bad"
	EXECLAG_MACSIM="$MACSIM" run sh "$K/scripts/tool/lint" --only bash32,workflows
	assert_success
	assert_output --partial "parse with the Mac's bash 3.2.57"
	assert_output --partial "lint: no workflows in .github/workflows: nothing for actionlint"
	# the parts named alone: no shellcheck, no source rules here
	refute_output --partial "(shellcheck -s sh)"
	refute_output --partial "source rules"
	# a part lint does not have is refused in one line, before any part runs
	run --separate-stderr sh "$K/scripts/tool/lint" --only bash32,spelling
	assert_equal "$status" 2
	assert_equal "$stderr" "lint: --only: 'spelling' is not a part (shell bash32 rules order routines workflows)"
	assert_output ""
}

@test "bash-4 forms in a bats file (mapfile, associative arrays, case conversion) fail make lint" {
	need_bash32
	for form in 'mapfile -t a <f' 'declare -A m' 'y=${x,,}' 'y=${x^^}'; do # lint: bash-4 as data
		printf '@test "x" {\n\t%s\n}\n' "$form" >"$K/tests/t.bats"
		EXECLAG_MACSIM="$MACSIM" run sh "$K/scripts/tool/lint" --only bash32
		assert_failure
		assert_output --partial "tests/t.bats:2:"
		assert_output --partial "bash-4 forms"
	done
	printf '@test "x" {\n\twhile read -r l; do a+=("$l"); done <f\n}\n' >"$K/tests/t.bats"
	EXECLAG_MACSIM="$MACSIM" run sh "$K/scripts/tool/lint" --only bash32
	assert_success
}

@test "source rules: untyped objc_msgSend, other dlopen flags, libproc.h, a header read by repro fail lint" {
	mkdir -p "$K/micro/plat"
	cp "$ROOT/micro/plat/devtoolsauth_objc.c" "$ROOT/micro/plat/responsible_dl.c" "$K/micro/plat/"
	cp "$ROOT/scripts/repro" "$K/scripts/"
	cp "$ROOT/Makefile" "$K/"
	EXECLAG_MACSIM="$MACSIM" run sh "$K/scripts/tool/lint" --only rules
	assert_success
	assert_output --partial "lint: 6 source rules hold"
	# each break alone fails, naming the file and why
	o="$K/micro/plat/devtoolsauth_objc.c"
	cp "$o" "$o.orig"
	sed 's/((devtools_msg_status)api->msg_send)(tool, sel_status)/api->msg_send(tool, sel_status)/' "$o.orig" >"$o"
	EXECLAG_MACSIM="$MACSIM" run sh "$K/scripts/tool/lint" --only rules
	assert_failure
	assert_output --partial "micro/plat/devtoolsauth_objc.c: objc_msgSend called without a type of its own"
	sed 's/dlopen(ep_path, RTLD_LAZY | RTLD_LOCAL)/dlopen(ep_path, RTLD_NOW)/' "$o.orig" >"$o"
	EXECLAG_MACSIM="$MACSIM" run sh "$K/scripts/tool/lint" --only rules
	assert_failure
	assert_output --partial "micro/plat/devtoolsauth_objc.c: a library opened other than RTLD_LAZY | RTLD_LOCAL"
	mv "$o.orig" "$o"
	printf '#include <libproc.h>\n' >>"$K/micro/plat/responsible_dl.c"
	EXECLAG_MACSIM="$MACSIM" run sh "$K/scripts/tool/lint" --only rules
	assert_failure
	assert_output --partial "micro/plat/responsible_dl.c: libproc by its header"
	cp "$ROOT/micro/plat/responsible_dl.c" "$K/micro/plat/"
	printf 'x=$(sed -n "s/^#define MIN_PAIRS //p" micro/stats/thresholds.h)\n' >>"$K/scripts/repro"
	EXECLAG_MACSIM="$MACSIM" run sh "$K/scripts/tool/lint" --only rules
	assert_failure
	assert_output --partial "scripts/repro: repro reads a header"
}

# the kit's micro/ sources (no build), copied into the copy of the kit
copy_micro() {
	local d
	mkdir -p "$K/micro"
	for d in "$ROOT"/micro/*/; do
		[ "$d" = "$ROOT/micro/bin/" ] || cp -R "$d" "$K/micro/"
	done
}

@test "micro/'s folders in one order: a later folder's header included fails make lint, naming the file" {
	# the kit's own sources pass; each break of a copy fails
	copy_micro
	EXECLAG_MACSIM="$MACSIM" run sh "$K/scripts/tool/lint" --only order
	assert_success
	assert_output --partial "lint: micro/'s folders keep their order (lib <- plat <- model <- fmt <- stats <- launcher <- make <- report <- prog <- fuzz)"
	# a reader of fmt/ that asked report/: fmt and report would include each other's
	cp "$K/micro/fmt/samples.c" "$K/samples.c"
	printf '#include "report.h"\n' >>"$K/micro/fmt/samples.c"
	n=$(wc -l <"$K/micro/fmt/samples.c" | tr -d ' ')
	EXECLAG_MACSIM="$MACSIM" run sh "$K/scripts/tool/lint" --only order
	assert_failure
	assert_output --partial "micro/fmt/samples.c:$n: includes report.h, of micro/report/, a folder after fmt/ in the order"
	assert_output --partial "lint: micro/'s folders out of their order, above"
	mv "$K/samples.c" "$K/micro/fmt/samples.c"
	# by a path, from lib, the first folder, to the model
	printf '#include "../model/run.h"\n' >>"$K/micro/lib/parse.c"
	EXECLAG_MACSIM="$MACSIM" run sh "$K/scripts/tool/lint" --only order
	assert_failure
	assert_output --partial "micro/lib/parse.c:"
	assert_output --partial "includes ../model/run.h, of micro/model/, a folder after lib/"
	cp "$ROOT/micro/lib/parse.c" "$K/micro/lib/"
	# a folder with no place in the order, and a header's name twice
	mkdir -p "$K/micro/extra"
	printf 'int x;\n' >"$K/micro/extra/x.c"
	cp "$K/micro/fmt/samples.h" "$K/micro/report/"
	EXECLAG_MACSIM="$MACSIM" run sh "$K/scripts/tool/lint" --only order
	assert_failure
	assert_output --partial "micro/extra/: a folder with no place in the order"
	assert_output --partial "micro/fmt/samples.h and micro/report/samples.h: two headers of one name"
}

@test "a program of micro/prog and a unit of micro/plat of one name fail make lint, naming both" {
	copy_micro
	printf 'int advise_plat;\n' >"$K/micro/plat/advise_linux.c"
	printf '/* advise.h */\n' >"$K/micro/plat/advise.h"
	EXECLAG_MACSIM="$MACSIM" run sh "$K/scripts/tool/lint" --only order
	assert_failure
	assert_output --partial "micro/prog/advise.c and micro/plat/advise_linux.c: a program and a platform unit of one name"
	assert_output --partial "micro/prog/advise.c and micro/plat/advise.h: a program and a platform unit of one name"
	rm "$K/micro/plat/advise_linux.c" "$K/micro/plat/advise.h"
	# a name that only begins as a program's is another name
	printf 'int advisor;\n' >"$K/micro/plat/advisor_linux.c"
	EXECLAG_MACSIM="$MACSIM" run sh "$K/scripts/tool/lint" --only order
	assert_success
	assert_output --partial "lint: micro/'s folders keep their order"
}

@test "statistics never print: a print added to a file of micro/stats fails make lint, naming it" {
	mkdir -p "$K/micro/stats"
	cp "$ROOT"/micro/stats/*.[ch] "$K/micro/stats/"
	# the kit's own stats files write into buffers (snprintf) and nothing else
	EXECLAG_MACSIM="$MACSIM" run sh "$K/scripts/tool/lint" --only rules
	assert_success
	assert_output --partial "lint: 1 source rules hold"
	# a comment that names fprintf( is not code
	printf '/* never fprintf(stdout, ...) here */\n' >>"$K/micro/stats/hfcompare.c"
	EXECLAG_MACSIM="$MACSIM" run sh "$K/scripts/tool/lint" --only rules
	assert_success
	# each way of writing to a stream, alone, fails lint with the file and line
	for call in 'fprintf(f, "%d", 1);' 'fputs("x", stdout);' 'printf("x");' 'putc(48, f);' \
		'fwrite(b, 1, 1, f);' 'json_dumpf(root, f, 0);'; do
		cp "$ROOT/micro/stats/suitestats.c" "$K/micro/stats/suitestats.c"
		printf 'static void shown(FILE *f)\n{\n\t%s\n}\n' "$call" >>"$K/micro/stats/suitestats.c"
		EXECLAG_MACSIM="$MACSIM" run sh "$K/scripts/tool/lint" --only rules
		assert_failure
		assert_output --partial "micro/stats/suitestats.c:$(($(wc -l <"$ROOT/micro/stats/suitestats.c") + 3)):"
		assert_output --partial "lint: micro/stats/suitestats.c: statistics print"
	done
}

@test "a routine of scripts/lib defined again (fail, a median) fails make lint, naming the file and line" {
	# the kit's scripts, library, checks and tests as they are: clean
	cp -R "$ROOT/scripts" "$ROOT/checks" "$ROOT/bin" "$K/"
	mkdir -p "$K/tests/live"
	cp "$ROOT"/tests/*.bats "$K/tests/"
	cp "$ROOT"/tests/live/*.bats "$K/tests/live/"
	cp -R "$ROOT/tests/test_helper" "$K/tests/"
	EXECLAG_MACSIM="$BATS_TEST_TMPDIR/none" run sh "$K/scripts/tool/lint" --only routines
	assert_success
	assert_output --partial "lint: no routine of scripts/lib is defined again"
	# a script that refuses a value with a fail() of its own
	printf '#!/bin/sh\nfail() { echo "x: $*" >&2; exit 2; }\nfail no\n' >"$K/scripts/probe/extra"
	EXECLAG_MACSIM="$BATS_TEST_TMPDIR/none" run sh "$K/scripts/tool/lint" --only routines
	assert_failure
	assert_output --partial "scripts/probe/extra:2:fail() {"
	assert_output --partial "routines of scripts/lib defined again above"
	rm "$K/scripts/probe/extra"
	# a test with a median of its own
	printf '@test "x" {\n\t:\n}\nmedian() { sort -n | awk 1; }\n' >"$K/tests/extra.bats"
	EXECLAG_MACSIM="$BATS_TEST_TMPDIR/none" run sh "$K/scripts/tool/lint" --only routines
	assert_failure
	assert_output --partial "tests/extra.bats:4:median() {"
	# one marked as a copy kept on purpose passes
	printf '@test "x" {\n\t:\n}\nmedian() { # lint: own copy (a test of the median)\n\tsort -n\n}\n' >"$K/tests/extra.bats"
	EXECLAG_MACSIM="$BATS_TEST_TMPDIR/none" run sh "$K/scripts/tool/lint" --only routines
	assert_success
}
