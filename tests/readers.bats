#!/usr/bin/env bats
# One reader a format (issue 35): conditions.txt is read by
# micro/fmt/conditions.c and scripts/lib/conditions alone, run.json by
# micro/fmt/runjson.c alone, samples.tsv by micro/fmt/samples.c alone (the
# scripts ask analyze --hung-index), the log excerpts by micro/fmt/logexcerpt.c
# and suite.tsv by micro/fmt/suitefile.c; execwatch's, logcount's and
# measure's sizes results (KEY<TAB>VALUE under a head) by micro/fmt/tabfile.c.
# A second reader appearing anywhere in
# the kit's code fails here, naming its file and line.  This reads the
# source on purpose: the property is where the code is, not what it does.

load test_helper/common-setup

setup() { _common_setup; }

# second_readers ROOT: every place under ROOT that reads one of these
# formats outside its reader, as FILE:LINE: TEXT; nothing when there is none.
second_readers() {
	(
		cd "$1" || exit 1
		# C: run.json loaded outside micro/fmt
		for f in $(find micro -name '*.c' ! -path 'micro/fmt/*' ! -path 'micro/fuzz/*'); do
			grep -q 'run\.json' "$f" && grep -Hn 'json_load_file' "$f"
			# C: conditions.txt split at '=' outside micro/fmt
			grep -q 'conditions\.txt' "$f" && grep -Hn "'='" "$f"
			# C: a log excerpt's lines parsed, a suite results file split
			grep -q 'log\.ndjson' "$f" && grep -Hn 'json_loads' "$f"
			grep -qE 'suite\.tsv|SUITE_SUFFIX' "$f" && grep -Hn 'split_tabs' "$f"
			# C: a KEY<TAB>VALUE result's head checked by hand
			grep -HnE 'str(n?)cmp[(].*"execlag-(execwatch|logcount|sizes)' "$f"
		done
		# shell: conditions.txt, samples.tsv or suite.tsv read by a text tool
		# (sed, awk, grep, cut, head, tail, read) or redirected in, outside
		# scripts/lib/conditions; a file written (> or >>) is no reader
		grep -rnE '(conditions\.txt|samples\.tsv|suite\.tsv)' scripts checks bin 2>/dev/null |
			grep -v '^scripts/lib/conditions:' |
			grep -vE '>>? *"[^"]*(conditions\.txt|samples\.tsv|suite\.tsv)"' |
			grep -E '((^|[^a-z_])(sed|awk|grep|cut|head|tail|read)([^a-z_].*|)|<) *"[^"]*(conditions\.txt|samples\.tsv|suite\.tsv)"'
	) || true
}

@test "one reader a format: no other reads conditions.txt, run.json, samples.tsv, suite.tsv, log excerpts" {
	run second_readers "$ROOT"
	assert_output ''
}

@test "a second reader is found: sed on conditions.txt, json_load_file of run.json, awk on samples, a head" {
	k="$BATS_TEST_TMPDIR/kit"
	mkdir -p "$k/micro/prog" "$k/micro/report" "$k/micro/fmt" "$k/scripts/lib" "$k/checks"
	printf 'x=$(sed -n "s/^os=//p" "$run/conditions.txt")\n' >"$k/scripts/one"
	printf 'n=$(awk "/^hang/" "$d/raw/exe.samples.tsv")\n' >"$k/checks/two"
	printf 'j = json_load_file(xasprintf("%%s/run.json", dir), 0, NULL);\n' >"$k/micro/prog/three.c"
	printf '/* conditions.txt */ eq = strchr(line, %s);\n' "'='" >"$k/micro/prog/four.c"
	printf '/* x.log.ndjson */ o = json_loads(line, 0, NULL);\n' >"$k/micro/report/six.c"
	printf 'if (strcmp(lines[0], "execlag-logcount\\t1") != 0)\n' >"$k/micro/prog/seven.c"
	# the readers themselves and a writer are not second readers
	printf 'j = json_load_file(path, 0, NULL); /* run.json */\n' >"$k/micro/fmt/runjson.c"
	printf 'echo "os=x" >>"$staging/conditions.txt"\n' >"$k/scripts/five"
	cp "$ROOT/scripts/lib/conditions" "$k/scripts/lib/"
	run second_readers "$k"
	assert_line --partial 'scripts/one:1:'
	assert_line --partial 'checks/two:1:'
	assert_line --partial 'micro/prog/three.c:1:'
	assert_line --partial 'micro/prog/four.c:1:'
	assert_line --partial 'micro/report/six.c:1:'
	assert_line --partial 'micro/prog/seven.c:1:'
	assert_equal "${#lines[@]}" 6
}

@test "condition (scripts/lib/conditions): the last value, no CR, comments skipped, absent is status 1" {
	. "$ROOT/scripts/lib/conditions"
	f="$BATS_TEST_TMPDIR/conditions.txt"
	printf '# launcher=no\nos=Darwin\r\nlauncher=spawn\nlauncher=sim:latency=3 key=path\nempty=\nweird line\n' >"$f"
	run condition "$f" launcher
	assert_success
	assert_output 'sim:latency=3 key=path'
	run condition "$f" os
	assert_output 'Darwin'
	run condition "$f" empty
	assert_success
	assert_output ''
	run condition "$f" gate.active
	assert_failure 1
	run condition "$BATS_TEST_TMPDIR/none.txt" os
	assert_failure 1
}
