#!/usr/bin/env bats
# micro/redact alone: a stream in, every value of EXECLAG_REDACT
# (PLACEHOLDER<TAB>VALUE lines) replaced by its placeholder in any case,
# byte for byte otherwise (tests/feedback.bats checks what make feedback
# redacts with it, end to end).

load test_helper/common-setup
load test_helper/gen-stream

setup() {
	_common_setup
	[ -x "$BIN/redact" ] || fail "$BIN/redact is missing: run 'make'"
}

@test "redact: megabytes with values at every read and line boundary come out exactly" {
	# with lines without a newline and binary bytes too
	local T=$'\t' list in="$BATS_TEST_TMPDIR/in" want="$BATS_TEST_TMPDIR/want"
	list="<user>${T}zzqxuser
<home>${T}/Users/zzqxuser
<host>${T}zzqxuser-mbp.local
<host>${T}zzqxuser-mbp
<serial>${T}C02XK0AAJGH5"
	gen_stream "$in" "$want" 2000000 "$list"
	# the input is what it should be: values everywhere, NUL bytes, a first
	# line of over half a megabyte
	[ "$(grep -a -c -i zzqxuser "$in")" -gt 100 ]
	[ "$(tr -dc '\000' <"$in" | wc -c)" -gt 10000 ]
	[ "$(head -c 700000 "$in" | tr -dc '\n' | wc -c)" -eq 0 ]
	EXECLAG_REDACT=$list "$BIN/redact" <"$in" >"$BATS_TEST_TMPDIR/out"
	cmp "$want" "$BATS_TEST_TMPDIR/out"
	# through a pipe, in odd-sized pieces: other read boundaries
	dd if="$in" bs=4099 2>/dev/null | EXECLAG_REDACT=$list "$BIN/redact" >"$BATS_TEST_TMPDIR/out2"
	cmp "$want" "$BATS_TEST_TMPDIR/out2"
	# the files in pairs, IN OUT (as scripts/feedback redacts a run's): each
	# the same bytes, the stream twice over one process (its buffer reused)
	EXECLAG_REDACT=$list "$BIN/redact" "$in" "$BATS_TEST_TMPDIR/out3" "$in" "$BATS_TEST_TMPDIR/out4" </dev/null
	cmp "$want" "$BATS_TEST_TMPDIR/out3"
	cmp "$want" "$BATS_TEST_TMPDIR/out4"
	run grep -a -c -i -e zzqxuser -e c02xk0aajgh5 "$BATS_TEST_TMPDIR/out2"
	assert_output 0
}

@test "redact: the longest value at the same place wins; usage errors are one line and exit 2" {
	local T=$'\t'
	run -0 env EXECLAG_REDACT="<user>${T}ab_c
<home>${T}/x/AB_C
<host>${T}ab_c-box.local
<host>${T}ab_c-box" "$BIN/redact" <<<"/x/ab_c/q AB_C-BOX.LOCAL ab_c-boxes Ab_C2"
	assert_output "<home>/q <host> <host>es <user>2"
	run -0 env EXECLAG_REDACT= "$BIN/redact" <<<"unchanged"
	assert_output unchanged
	run --separate-stderr env -u EXECLAG_REDACT "$BIN/redact" </dev/null
	assert_equal "$status" 2
	assert_equal "$stderr" "redact: EXECLAG_REDACT is not set (see --help)"
	run --separate-stderr env EXECLAG_REDACT="novalue" "$BIN/redact" </dev/null
	assert_equal "$status" 2
	assert_equal "$stderr" "redact: EXECLAG_REDACT: a line is not PLACEHOLDER<TAB>VALUE"
	# a file without the OUT of its pair: the same one line, exit 2
	run --separate-stderr env EXECLAG_REDACT= "$BIN/redact" a b c </dev/null
	assert_equal "$status" 2
	assert_equal "$stderr" "redact: unexpected argument 'c': the values come in EXECLAG_REDACT (try --help)"
}
