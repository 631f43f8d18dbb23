#!/usr/bin/env bats
# Bad input and hostile conditions across the kit (issue 11, item 8): each
# gets one clear line on stderr, never a raw message of a tool underneath.

load test_helper/common-setup
load test_helper/quickrun

setup() {
	_common_setup
	D="$BATS_TEST_TMPDIR"
	mkdir -p "$D/tmp"
	export TMPDIR="$D/tmp"
}

# Every script with options: an unknown one is refused before any work.
SCRIPTS="tool/bench tool/sensitivity tool/bench-aggregate probe/hfcheck probe/sysinfo probe/logs probe/logcount probe/health
	probe/services check tool/cross tool/lint feedback repro measure"

@test "every script refuses an unknown option with one line and exit 2, and answers --help" {
	# (the loop without bats' DEBUG trap: some 500 commands of this shell)
	kit_untraced each_script
}
# each_script: the test above, script by script
each_script() {
	local s args
	for s in $SCRIPTS; do
		case $s in
		probe/logs) args="excerpt --bogus" ;;
		*) args="--bogus" ;;
		esac
		# shellcheck disable=SC2086
		run_sep sh "$ROOT/scripts/$s" $args </dev/null
		assert_equal "$s $status" "$s 2"
		[[ "$stderr" != *$'\n'* ]] || fail "$s: more than one line on stderr: $stderr"
		[[ "$stderr" == *"--bogus"* ]] || fail "$s: $stderr"
		assert_equal "$s: $output" "$s: "
		assert_empty "$D/tmp"
		run_sep sh "$ROOT/scripts/$s" --help </dev/null
		assert_equal "$s $status" "$s 0"
		[[ "$output" == *usage* ]] || fail "$s --help: $output"
	done
}

# Every compiled program but tiny (the payload), each with an option that
# takes a value (- for none): an unknown option and a missing value are one
# line in lib/opts' words, exit 2, nothing on stdout; --help is the usage on
# stdout, exit 0.
PROGRAMS="mkfresh:--kind launch:--manifest analyze:--run spawnloop:- suite:--dir devtools:-
	compare:--results fbtext:--run redact:- advise:--run runfield:--run aggregate:--dir
	simrate:--runs execwatch:--out measure:--out"

@test "every program words an unknown option and a missing value one way, and answers --help" {
	# (the loop without bats' DEBUG trap: some 1,000 commands of this shell)
	kit_untraced each_program
}
# each_program: the test above, program by program
each_program() {
	local p o list=$PROGRAMS
	[ "$(uname -s)" != Linux ] || list="$list gate:--dir burn:--threads"
	for p in $list; do
		o=${p#*:} p=${p%%:*}
		run_sep "$BIN/$p" --frob </dev/null
		assert_equal "$p $status: $stderr" "$p 2: $p: unknown option '--frob' (try --help)"
		assert_equal "$p: $output" "$p: "
		if [ "$o" != - ]; then
			run_sep "$BIN/$p" "$o" </dev/null
			assert_equal "$p $status: $stderr" "$p 2: $p: $o needs a value (try --help)"
			assert_equal "$p: $output" "$p: "
		fi
		run_sep "$BIN/$p" --help </dev/null
		assert_equal "$p $status" "$p 0"
		[[ "$output" == usage:* ]] || fail "$p --help: $output"
	done
}

# Programs that take no word but their options, or words after them: one
# wording for a word too many or too few.
@test "spawnloop without COUNT and PROGRAM, redact given a word: one line, exit 2" {
	run_sep "$BIN/spawnloop" 5 </dev/null
	assert_equal "$status: $stderr" "2: spawnloop: COUNT and PROGRAM are required (try --help)"
	run_sep env EXECLAG_REDACT= "$BIN/redact" list.txt </dev/null
	assert_equal "$status: $stderr" "2: redact: unexpected argument 'list.txt': the values come in EXECLAG_REDACT (try --help)"
	assert_output ""
}

# ---- a full disk: "no space left in FOLDER", never the raw words of ld ----

teardown() {
	[ -z "${MOUNTED:-}" ] || umount "$MOUNTED" 2>/dev/null || true
}

# tiny_fs DIR SIZE: a small tmpfs at DIR, or skip where mounting is not allowed.
tiny_fs() {
	mkdir -p "$1"
	mount -t tmpfs -o "size=$2" tmpfs "$1" 2>/dev/null ||
		skip "cannot mount a small tmpfs here (Linux, root): the full-disk cases need one"
	MOUNTED=$1
}

# fill DIR: leave no byte free on its file system.
fill() {
	dd if=/dev/zero of="$1/.fill" bs=4096 2>/dev/null || true
}

# one_line STATUS LINE: the last command exited STATUS with exactly LINE on stderr.
one_line() {
	assert_equal "$status" "$1"
	assert_equal "$stderr" "$2"
}

@test "a full disk while making artifacts: mkfresh says no space left in the work folder, nothing left" {
	# room for one program (16 kB, 4 pages) and a few scripts (a page each),
	# not for the next: the disk fills after the first is made, whose
	# removal "nothing left" asserts (three programs, eight scripts: fewer
	# compiles than 64k and 20 of each, the same failure)
	tiny_fs "$D/full" 24k
	mkdir "$D/full/w"
	for kind in exe:3 script:8 exe-copy:3 dylib:3; do
		count=${kind#*:} kind=${kind%:*}
		run_sep "$BIN/mkfresh" --kind "$kind" --count "$count" --dir "$D/full/w" \
			--prefix "p$kind" --manifest "$D/m"
		one_line 1 "mkfresh: no space left in $D/full/w"
		assert_empty "$D/full/w"
		[ ! -e "$D/m" ]
	done
}

@test "a full disk for the manifest, or for the compiler's temporaries in TMPDIR, is named" {
	tiny_fs "$D/full" 64k
	fill "$D/full"
	mkdir "$D/w"
	run_sep "$BIN/mkfresh" --kind script --count 3 --dir "$D/w" --prefix p \
		--manifest "$D/full/m"
	one_line 1 "mkfresh: no space left in $D/full"
	TMPDIR="$D/full" run_sep "$BIN/mkfresh" --kind exe --count 3 --dir "$D/w" \
		--prefix q --manifest "$D/m"
	one_line 1 "mkfresh: no space left in $D/full (the compiler's temporaries)"
	assert_empty "$D/w"
}

@test "a full disk in the suite, for launch's samples, analyze's results and jansson's build is named" {
	tiny_fs "$D/full" 128k
	mkdir "$D/full/w"
	run_sep "$BIN/suite" --dir "$D/full/w" --count 40 --jobs 1 --out "$D/s.tsv" --quiet
	one_line 1 "suite: no space left in $D/full/w"

	mkdir "$D/w"
	"$BIN/mkfresh" --kind script --count 3 --dir "$D/w" --prefix p --manifest "$D/m"
	cp -R "$FIXTURES/analyze/suite" "$D/full/run"
	fill "$D/full"
	run_sep "$BIN/launch" --manifest "$D/m" --out "$D/full/s.tsv" --quiet
	one_line 1 "launch: no space left in $D/full"
	run_sep "$BIN/analyze" --run "$D/full/run" --quiet
	one_line 1 "analyze: no space left in $D/full/run"
	[ -z "$(find "$D/full" -name '*.tmp.*' -o -name run.json -o -name s.tsv)" ]

	sh "$ROOT/scripts/tool/fetch" jansson >/dev/null 2>&1 || skip "the jansson source is not at hand (scripts/tool/fetch jansson)"
	rm -rf "$D/full/run" "$D/full/.fill"
	fill "$D/full"
	run_sep sh "$ROOT/scripts/tool/jansson" "$D/full/j"
	[ "$status" = 1 ] || fail "jansson: $status $stderr"
	[[ "$stderr" == *"jansson: no space left in $D/full" ]] || fail "$stderr"
	[[ "$stderr" != *"collect2"* && "$stderr" != *"No space left on device"* ]] || fail "$stderr"
}

@test "analyze that cannot write its results says which file and why" {
	# the suite fixture makes no plots: run.json is the first file written
	cp -R "$FIXTURES/analyze/suite" "$D/run"
	run_sep bash -c 'trap "" XFSZ; ulimit -f 2; exec "$0" --run "$1" --quiet' \
		"$BIN/analyze" "$D/run"
	one_line 1 "analyze: $D/run/run.json: cannot write: File too large"
	[ ! -e "$D/run/run.json" ]
	[ ! -e "$D/run/report.md" ]
	cp -R "$FIXTURES/analyze/hyperfine" "$D/run2"
	run_sep bash -c 'trap "" XFSZ; ulimit -f 2; exec "$0" --run "$1" --quiet' \
		"$BIN/analyze" "$D/run2"
	one_line 1 "analyze: $D/run2/plot-launch.svg: cannot write: File too large"
}

# ---- launch: the manifest and the output, before any launch ----

@test "launch: a folder as the manifest is no empty file; --out checked before the first launch (only once)" {
	run_sep "$BIN/launch" --manifest "$D/tmp" --out "$D/s.tsv"
	one_line 2 "launch: manifest $D/tmp is a folder, not a manifest file"
	# (was: "launch checks --out before the first launch, which a run has only once")
	mkdir "$D/w"
	"$BIN/mkfresh" --kind script --count 3 --dir "$D/w" --prefix p --manifest "$D/m"
	run_sep "$BIN/launch" --manifest "$D/m" --out "$D/nowhere/s.tsv"
	# no pass ran: its summary line would come before this
	one_line 2 "launch: cannot write $D/nowhere/s.tsv: No such file or directory"
	# and the artifacts are still fresh: a good --out launches them all
	run_sep "$BIN/launch" --manifest "$D/m" --out "$D/s.tsv" --quiet
	assert_success
	assert_equal "$(grep -c '^sample	first' "$D/s.tsv")" 3
	[ -z "$(find "$D" -name '*.tmp.*')" ]
}

# ---- numbers out of range: one line naming file and field, exit 2 ----

@test "out of range: run.json numbers refused by compare, fbtext, aggregate; samples, hyperfine by analyze" {
	mkdir -p "$D/big/r"
	jq '.cases[0].penalty_ms.median = 1e308' "$FIXTURES/compare/online/run.json" >"$D/big/r/run.json"
	want="$D/big/r/run.json: cases[0].penalty_ms.median is out of range"
	run_sep "$BIN/compare" "$D/big/r" "$FIXTURES/compare/offline"
	assert_equal "$status" 2
	[[ "$stderr" == "compare: A: $want"* ]] || fail "$stderr"
	run_sep "$BIN/fbtext" --run "$D/big/r"
	assert_equal "$status" 2
	[[ "$stderr" == "fbtext: $want"* ]] || fail "$stderr"
	[[ "$output" != *inf* ]]
	for v in -1e308 1e10 -2e9; do
		jq ".cases[0].configs[0].ratio = $v" "$FIXTURES/compare/online/run.json" >"$D/big/r/run.json"
		run_sep "$BIN/fbtext" --run "$D/big/r"
		assert_equal "$status" 2
		[[ "$stderr" == "fbtext: $D/big/r/run.json: cases[0].configs[0].ratio is out of range"* ]] || fail "$v: $stderr"
	done
	# aggregate skips such a run with one line naming file and field
	mkdir -p "$D/agg/good"
	cp "$FIXTURES/aggregate/mac-m1pro/run.json" "$D/agg/good/"
	mkdir -p "$D/agg/big"
	jq '.cases[0].first_median_ms = 1e308' "$FIXTURES/aggregate/mac-m1pro/run.json" >"$D/agg/big/run.json"
	run_sep "$BIN/aggregate" --dir "$D/agg" --out "$D/out" --quiet
	[[ "$stderr" == *"$D/agg/big/run.json"*"cases[0].first_median_ms is out of range"* ]] || fail "$stderr"
	[[ "$stderr" != *$'\n'* ]] || fail "more than one line on stderr: $stderr"
	# (not the test's last line now: a ! command fails no test under set -e)
	! grep -q '[0-9]\{30\}' "$D/out.md" "$D/out.csv" || fail "a number of 30 digits in $D/out.md or $D/out.csv"
	# (was: "raw samples and hyperfine times out of range are refused by analyze")
	cp -R "$FIXTURES/analyze/hyperfine" "$D/run"
	f="$D/run/raw/exe-t1-all.samples.tsv"
	sed 's/^\(sample	first	0	0	\)21000000/\19000000000000000000/' "$FIXTURES/analyze/hyperfine/raw/exe-t1-all.samples.tsv" >"$f"
	run_sep "$BIN/analyze" --run "$D/run" --quiet
	assert_equal "$status" 2
	[[ "$stderr" == "analyze: $f:9: bad DUR_NS '9000000000000000000'"* ]] || fail "$stderr"
	cp "$FIXTURES/analyze/hyperfine/raw/exe-t1-all.samples.tsv" "$f"
	sed 's/^\(pass	first	\)141000000/\19000000000000000000/' "$FIXTURES/analyze/hyperfine/raw/exe-t1-all.samples.tsv" >"$f"
	run_sep "$BIN/analyze" --run "$D/run" --quiet
	assert_equal "$status" 2
	[[ "$stderr" == "analyze: $f:7: bad WALL_NS"* ]] || fail "$stderr"
	cp "$FIXTURES/analyze/hyperfine/raw/exe-t1-all.samples.tsv" "$f"
	h="$D/run/raw/hyperfine-exe-first.json"
	jq '.results[0].times[1] = 1e308' "$FIXTURES/analyze/hyperfine/raw/hyperfine-exe-first.json" >"$h"
	run_sep "$BIN/analyze" --run "$D/run" --quiet
	assert_equal "$status" 2
	[[ "$stderr" == "analyze: $h: results[0].times[1] is not a time"* ]] || fail "$stderr"
	[ ! -e "$D/run/run.json" ]
}

# ---- too few open files ----

@test "too few open files (ulimit -n 8): one line naming the limit, from make and from the script" {
	# make: before any recipe (dash, Linux's sh, cannot even read a script so)
	# as from a user's shell: only 0, 1 and 2 open (bats holds more)
	run_sep bash -c 'for fd in 3 4 5 6 7 8 9; do eval "exec $fd>&-"; done
		ulimit -n 8 && exec make -s --no-print-directory -C "$1" repro' _ "$ROOT"
	assert_equal "$status" 2
	[[ "$stderr" != *$'\n'* ]] || fail "more than one line on stderr: $stderr"
	[[ "$stderr" == *"execlag: only 8 files may be open at once (ulimit -n); the kit needs 64"* ]] || fail "$stderr"
	[[ "$stderr" != *"Invalid argument"* ]] || fail "$stderr"
	# the script, as a Mac's /bin/sh (bash) runs it
	run_sep bash -c 'for fd in 3 4 5 6 7 8 9; do eval "exec $fd>&-"; done
		ulimit -n 8 && exec bash --posix "$1/scripts/repro"' _ "$ROOT"
	assert_equal "$status" 2
	assert_equal "$stderr" "execlag: only 8 files may be open at once (ulimit -n); the kit needs 64: ulimit -n 256"
	assert_empty "$D/tmp"
}

@test "a bad TMPDIR is the kit's one line naming TMPDIR, never mktemp's own" {
	: >"$D/file"
	for t in "$D/nonexistent" "$D/file"; do
		for s in "repro --cases exe --threads 1" "feedback --run $FIXTURES/compare/online" "probe/services sample" "tool/runtests $ROOT/tests/maint/lint.bats"; do
			# shellcheck disable=SC2086
			TMPDIR=$t run_sep sh "$ROOT/scripts/"$s
			assert_equal "$s: $status" "$s: 2"
			[[ "$stderr" != *$'\n'* ]] || fail "$s: more than one line on stderr: $stderr"
			[[ "$stderr" == *"TMPDIR '$t' is not a"* ]] || fail "$s: $stderr"
			[[ "$stderr" != *mktemp* ]] || fail "$s: $stderr"
		done
	done
}

@test "progress: plain lines where stderr is not a terminal, one updating line where it is" {
	run_sep sh -c '. "$1/scripts/lib/progress"; progress "step 1/2"; progress "step 2/2"; progress_done; echo out' sh "$ROOT"
	assert_success
	assert_equal "$output" out
	assert_equal "$stderr" $'step 1/2\nstep 2/2'
	# on a terminal (util-linux script gives one): carriage returns, no newline
	script -qc true /dev/null >/dev/null 2>&1 </dev/null || skip "no script(1) with -c to give a terminal"
	run_both script -qc "sh -c '. \"$ROOT/scripts/lib/progress\"; progress a; progress b; progress_done' 2>&1" /dev/null </dev/null
	assert_success
	[[ "$output" == $'\r\033[Ka\r\033[Kb\r\033[K'* ]] || fail "$(printf '%s' "$output" | od -c | head -3)"
	[[ "$output" != *$'\n'* ]] || fail "a newline on a terminal: $(printf '%s' "$output" | od -c | head -3)"
}
