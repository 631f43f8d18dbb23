#!/usr/bin/env bats
# One reader a file (issue 41, item 2), shown by what the kit does, not by
# where its code is.  For each format the kit writes and reads again, a
# real file of it (written by the kit, or a fixture the kit wrote) is copied
# and the copy's layout changed: a head's version, a column moved, a key
# renamed.  Then every consumer of the format -- each program and script
# that reads it -- runs on the copy, and each must meet it in the one
# reader's own words (its file's reader in micro/fmt, or its function in
# scripts/lib).  A consumer with a parser of its own would not: it would
# take the changed layout its own way, or fail in other words.
#
# The table is the CONSUMERS list below, a row a consumer:
#   FORMAT <TAB> CONSUMER <TAB> OUTCOME <TAB> COMMAND
# OUTCOME is fails (a status other than 0) or notes (status 0: a consumer
# that goes on by design, saying what it could not read, in what it prints
# or writes).  COMMAND is run by bash with the format's setting (fmt_FORMAT,
# below: F, the changed copy; WORDS, the reader's words every consumer must
# show; and what its consumers need), and what it prints (stdout and stderr)
# must hold WORDS.  A new format is a fmt_FORMAT function, its rows and a
# test line at the end; a new consumer of a format is a row.

load test_helper/common-setup

setup_file() {
	make -C "$BATS_TEST_DIRNAME/.." -s build >/dev/null
}

setup() {
	_common_setup
	W="$BATS_TEST_TMPDIR"
	mkdir -p "$W/tmp" "$W/results" "$W/work" "$W/raw" "$W/scratch"
	export TMPDIR="$W/tmp"
	SIM='sim:latency=1 workers=1 key=inode seed=7'
}

CONSUMERS='
manifest	launch	fails	"$BIN/launch" --manifest "$F" --out "$W/o.tsv"
manifest	launch --objects (what hfcheck and the copy test ask)	fails	"$BIN/launch" --manifest "$F" --objects
manifest	scripts/probe/hfcheck	notes	PATH="$W/hf:$PATH" EXECLAG_BIN="$B" sh "$ROOT/scripts/probe/hfcheck" --dir "$W/work" --raw "$W/raw" --cases exe --runs 3 --scratch "$W/scratch"
manifest	scripts/repro	fails	EXECLAG_BIN="$B" sh "$ROOT/scripts/repro" --cases script --threads 1 --count 6 --launcher "$SIM" --results "$W/results"
samples	analyze --run	fails	"$BIN/analyze" --run "$R" --quiet
samples	analyze --hung-index (what repro asks)	fails	"$BIN/analyze" --hung-index "$F"
samples	analyze --stopped (what repro asks)	fails	"$BIN/analyze" --stopped "$F"
samples	analyze --first-launch (what repro asks)	fails	"$BIN/analyze" --first-launch "$F"
samples	scripts/repro	fails	EXECLAG_BIN="$B" sh "$ROOT/scripts/repro" --cases script --threads 1 --count 6 --launcher "$SIM" --results "$W/results"
case	scripts/tool/casegen (the build)	fails	sh "$K/scripts/tool/casegen" "$K/cases"
case	scripts/tool/casegen --list	fails	sh "$K/scripts/tool/casegen" --list "$K/cases"
case	scripts/repro	fails	sh "$K/scripts/repro" --cases exe --threads 1 --count 6 --launcher "$SIM" --results "$W/results"
case	scripts/probe/hfcheck	fails	sh "$K/scripts/probe/hfcheck" --dir "$W/work" --raw "$W/raw" --cases exe --scratch "$W/scratch"
case	scripts/check (make check)	fails	sh "$K/scripts/check" --run "$R"
case	make check'"'"'s patterns (checks/pattern/lib.bash)	fails	K="$K" bats "$K/checks/pattern/expected.bats"
kinds	scripts/tool/casegen --kinds (the build)	fails	sh "$K/scripts/tool/casegen" --kinds "$K/cases"
kinds	scripts/tool/casegen (the build)	fails	sh "$K/scripts/tool/casegen" "$K/cases"
kinds	scripts/repro	fails	sh "$K/scripts/repro" --cases exe --threads 1 --count 6 --launcher "$SIM" --results "$W/results"
run.json	runfield	fails	"$BIN/runfield" --run "$R" conditions/os
run.json	compare	fails	"$BIN/compare" "$R" "$R"
run.json	fbtext	fails	"$BIN/fbtext" --run "$R"
run.json	advise	fails	"$BIN/advise" --run "$R"
run.json	aggregate	fails	"$BIN/aggregate" --dir "$W/runs"
run.json	scripts/check (make check)	fails	sh "$ROOT/scripts/check" --run "$R"
run.json	scripts/compare (make compare)	fails	sh "$ROOT/scripts/compare" -- "$R" "$R"
run.json	scripts/feedback (make feedback)	fails	sh "$ROOT/scripts/feedback" --run "$R"
services	analyze (report.md)	notes	"$BIN/analyze" --run "$R" --quiet && cat "$R/report.md"
logstatus	analyze (report.md)	notes	"$BIN/analyze" --run "$R" --quiet && cat "$R/report.md"
suite	analyze	fails	"$BIN/analyze" --run "$R" --quiet
assessed	analyze --run	fails	"$BIN/analyze" --run "$R" --quiet
'

# programs: B, a folder of the kit's programs in which NAME is replaced by
# a wrapper that runs the real one and then gives the caller the changed
# copy F in place of the file it wrote (ARG: the option naming that file),
# for a consumer that makes the file itself before it reads it
programs() {
	local name=$1 arg=$2 p progs=()
	B="$W/bin"
	mkdir -p "$B"
	# (one ln for them all: an ln each was some 25 processes)
	for p in "$BIN"/*; do
		if [ -f "$p" ] && [ -x "$p" ]; then progs+=("$p"); fi
	done
	ln -sf "${progs[@]}" "$B/"
	rm -f "$B/$name"
	cat >"$B/$name" <<EOF
#!/bin/sh
out=""
prev=""
for a in "\$@"; do [ "\$prev" != "$arg" ] || out=\$a; prev=\$a; done
"$BIN/$name" "\$@" || exit \$?
[ -z "\$out" ] || cp "$F" "\$out"
EOF
	chmod +x "$B/$name"
}

# kit_copy: K, a copy of the kit's scripts, cases and checks (its programs
# the kit's own: the scripts find them in micro/bin)
kit_copy() {
	K="$W/kit"
	mkdir -p "$K/micro"
	cp -R "$ROOT/scripts" "$ROOT/cases" "$ROOT/checks" "$ROOT/Makefile" "$K/"
	ln -s "$BIN" "$K/micro/bin"
	# make check's patterns as a pattern test uses them
	printf '%s\n' 'load lib' '@test "what exe is expected to show" { ROOT=$K; CONTEXT=macos; want=$(expected exe); }' \
		>"$K/checks/pattern/expected.bats"
}

# a run folder from a fixture the kit wrote (the simulator's samples), analyzed
run_copy() {
	R="$W/runs/run"
	rm -rf "$W/runs"
	mkdir -p "$W/runs"
	cp -R "$1" "$R"
}

fmt_manifest() { # a head's version changed
	"$BIN/mkfresh" --kind script --case t --count 5 --dir "$W" --prefix m --manifest "$W/m" >/dev/null
	F="$W/m2"
	sed '1s/^execlag-manifest	1$/execlag-manifest	2/' "$W/m" >"$F"
	WORDS=":1: corrupt manifest: first line is not 'execlag-manifest<TAB>1'"
	programs mkfresh --manifest
	# a hyperfine recent enough for hfcheck to go on to making its artifacts
	mkdir -p "$W/hf"
	printf '#!/bin/sh\necho "hyperfine 1.18.0"\n' >"$W/hf/hyperfine"
	chmod +x "$W/hf/hyperfine"
}

fmt_samples() { # a column moved: PASS from second to last in every sample line
	run_copy "$FIXTURES/simulated/mac-sim"
	F="$R/raw/exe-t1-all.samples.tsv"
	awk -F '\t' -v OFS='\t' '$1 == "sample" { p = $2; for (i = 2; i < NF; i++) $i = $(i + 1); $NF = p } { print }' \
		"$F" >"$W/s" && mv "$W/s" "$F"
	WORDS=": unknown pass '0' (want first, repeat or reference)"
	programs launch --out
}

fmt_case() { # a key renamed: kind= is type=
	kit_copy
	run_copy "$FIXTURES/simulated/mac-sim"
	"$BIN/analyze" --run "$R" --quiet
	F="$K/cases/exe.case"
	sed -i.orig 's/^kind=/type=/' "$F"
	WORDS="$F: no kind="
}

fmt_kinds() { # a column moved: the exe row's platforms before its compiled
	kit_copy
	F="$K/cases/kinds"
	sed -i.orig 's/^exe  *yes  *yes  *any /exe any yes yes /' "$F"
	WORDS="$F:$(grep -n '^exe any' "$F" | cut -d: -f1): compiled is yes or no: any"
}

fmt_run.json() { # a head's version changed: schema_version 2
	run_copy "$FIXTURES/simulated/mac-sim"
	"$BIN/analyze" --run "$R" --quiet
	F="$R/run.json"
	sed -i.orig 's/"schema_version": 1,/"schema_version": 2,/' "$F"
	rm -f "$F.orig"
	WORDS="$F: schema_version 2 is not the version this kit reads (1)"
}

# head_changed FIXTURE FILE: a run folder from FIXTURE (R), its raw/FILE's
# head (KIND<TAB>1) given version 2 (F)
head_changed() {
	run_copy "$1"
	F="$R/raw/$2"
	sed -i.orig '1s/	1$/	2/' "$F"
}

fmt_services() { # a head's version changed
	head_changed "$FIXTURES/services-log/mac" exe-t1-all.services.tsv
	WORDS="exe-t1-all.services.tsv:1: not a services file"
}

fmt_logstatus() { # a head's version changed
	head_changed "$FIXTURES/services-log/mac" exe-t1-all.log.status
	WORDS="exe-t1-all.log.status is not a log status file"
}

fmt_suite() { # a head's version changed
	head_changed "$FIXTURES/analyze/suite-none" suite-t1-all.suite.tsv
	WORDS="$F:1: not a suite results file (want 'execlag-suite<TAB>1')"
}

fmt_assessed() { # a column moved: MS before TOOL, beside a config's manifest
	run_copy "$FIXTURES/simulated/mac-sim"
	F="$R/raw/exe-t1-all.manifest.assessed"
	awk -F '\t' -v OFS='\t' '{ t = $2; $2 = $3; $3 = t; print }' "$FIXTURES/assessed/mac-gktool.assessed" >"$F"
	WORDS="$F:1: not an assessment (INDEX, TOOL, MS, STATUS): TOOL is not a tool's name"
}

# consumer WHO OUTCOME COMMAND: run one consumer on F; "" when it met F in
# the reader's words, else what it did instead
consumer() {
	local out st
	out=$(eval "$3" 2>&1 </dev/null) && st=0 || st=$?
	case $2:$st in
	fails:0) printf '%s: took the changed file (exit 0): %s\n' "$1" "$(printf '%s' "$out" | tail -n 3)"; return ;;
	notes:0 | fails:*) ;;
	*) printf '%s: exit %s, where it goes on by design: %s\n' "$1" "$st" "$(printf '%s' "$out" | tail -n 3)"; return ;;
	esac
	case $out in
	*"$WORDS"*) ;;
	*) printf '%s: not in the reader'"'"'s words (exit %s): %s\n' "$1" "$st" "$(printf '%s' "$out" | tail -n 3)" ;;
	esac
}

# guard FORMAT: the format's file, changed, met by each of its consumers in
# the reader's words; every consumer's line on fd 3
guard() {
	local fmt=$1 f who how cmd n=0 bad="" why
	"fmt_$fmt"
	[ -f "$F" ] || fail "fmt_$fmt made no file"
	while IFS='	' read -r f who how cmd; do
		[ "$f" = "$fmt" ] || continue
		n=$((n + 1))
		why=$(consumer "$who" "$how" "$cmd")
		if [ -z "$why" ]; then
			echo "# $fmt: $who: $WORDS" >&3
		else
			bad="$bad$why
"
		fi
	done <<EOF
$CONSUMERS
EOF
	[ "$n" -gt 0 ] || fail "no consumer of $fmt in the table"
	[ -z "$bad" ] || fail "consumers of $fmt that did not meet the change through its reader:
$bad"
}

@test "the manifest: launch (and the scripts through it) meet a changed head in manifest.c's words" {
	kit_untraced guard manifest
}

@test "the samples: analyze (and repro through it) meet a moved column in samples.c's words" {
	kit_untraced guard samples
}

@test "a case file: casegen, repro, hfcheck and make check meet a renamed key in scripts/lib/cases' words" {
	kit_untraced guard case
}

@test "the kinds table: casegen and repro meet a moved column in scripts/lib/cases' words" {
	kit_untraced guard kinds
}

@test "run.json: every program and script that reads it meets a changed version in runjson.c's words" {
	kit_untraced guard run.json
}

@test "the assessments beside a manifest: analyze meets a moved column in assessed.c's words" {
	kit_untraced guard assessed
}

@test "the services, the log status and the suite: analyze meets a changed head in their readers' words" {
	kit_untraced guard services
	kit_untraced guard logstatus
	kit_untraced guard suite
}

@test "the guard fails a consumer with a parser of its own, and one that takes the change" {
	fmt_manifest
	# an awk reading the artifacts, as hfcheck did before it asked launch
	run consumer awk fails "awk -F '\\t' '\$1 == \"artifact\" { print \$3 }' \"\$F\""
	kit_untraced assert_output --partial "awk: took the changed file (exit 0)"
	# a parser that refuses the change, but in words of its own
	run consumer head fails "[ \"\$(head -n 1 \"\$F\")\" = 'execlag-manifest	1' ] || { echo 'not a manifest' >&2; exit 2; }"
	kit_untraced assert_output --partial "head: not in the reader's words (exit 2): not a manifest"
	# and the reader itself passes
	run consumer launch fails '"$BIN/launch" --manifest "$F" --objects'
	kit_untraced assert_output ''
}
