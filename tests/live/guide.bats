#!/usr/bin/env bats
# docs/workshop.md as written: every command block a Linux attendee meets,
# in the guide's order, back to back, under the calibration gate, in a copy
# of the kit (its own results/ and workshop/), with the guide's own
# remedies where it gives one.  The commands are the guide's lines
# unchanged but for two things: /tmp is a folder of this test's own (the
# guide's /tmp/test.sh and /tmp/execlag-ws would be shared with the
# machine), and `sudo` is the identity (these tests run as root, where
# the gate runs at all; a real sudo would also reset the environment).
# The macOS-only lines ("# macOS", the Mac's part of exercise 6) are left
# out, as a Linux attendee leaves them out.  tests/workshop.bats checks
# each exercise's check in detail on smaller runs; this file checks that
# the guide, as a whole, runs without a blocker, and says how long it
# takes.

load ../test_helper/common-setup

# guide_commands: the Linux attendee's command lines, "LINE<TAB>COMMAND",
# in order.
guide_commands() {
	awk '
		/^\*\*(Going offline first|The exemption) \(macOS\)\.\*\*/ { mac = 1 }
		/^\*\*Linux, under the gate:\*\*/ { mac = 0 }
		/^```/ { sh = !inblock && $0 == "```sh"; inblock = !inblock; next }
		inblock && sh && !mac && $0 !~ /#[[:space:]]*macOS/ && $0 !~ /#[[:space:]]*no root/ && $0 !~ /^[[:space:]]*$/ {
			printf "%d\t%s\n", NR, $0
		}' "$ROOT/docs/workshop.md"
}

# step N LINE KIND COMMAND: run COMMAND (in this shell, so `d=…` carries on
# to later blocks, as in the attendee's terminal); its output goes to
# out/N.log and one row to steps.tsv: N, guide line, kind, status,
# seconds, command.
step() {
	local n=$1 line=$2 kind=$3 cmd=$4 t0 t1 st
	t0=$(date +%s.%N)
	eval "$cmd" >"$G/out/$n.log" 2>&1 </dev/null
	st=$?
	t1=$(date +%s.%N)
	printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$n" "$line" "$kind" "$st" \
		"$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.1f", b - a }')" "$cmd" >>"$G/steps.tsv"
	return "$st"
}

# attend: every command of the guide, in order (run in setup_file).
attend() {
	local n=0 line cmd last_repro="" gate_pid="" i s r
	while IFS="$(printf '\t')" read -r line cmd; do
		cmd=${cmd//\/tmp\//$G/tmp/}
		n=$((n + 1))
		case $cmd in
		*micro/bin/gate\ --dir*)
			# the guide's second terminal: the gate in the background,
			# until the next command has run (then Ctrl-C)
			eval "${cmd/sudo micro\/bin\/gate/exec sudo micro/bin/gate} --ready-file '$G/gate.ready'" \
				>"$G/out/$n.log" 2>&1 </dev/null 3>&- &
			gate_pid=$!
			for i in $(seq 1 100); do [ -e "$G/gate.ready" ] && break; sleep 0.05; done
			printf '%s\t%s\tgate\t%s\t0.0\t%s\n' "$n" "$line" "$([ -e "$G/gate.ready" ] && echo 0 || echo 1)" "$cmd" >>"$G/steps.tsv"
			continue
			;;
		*"make aggregate DIR=workshop"*)
			# the leader collects each seat's run.json (the block before)
			s=0
			for r in results/*/run.json; do
				s=$((s + 1))
				mkdir -p "workshop/seat$(printf %02d "$s")"
				cp "$r" "workshop/seat$(printf %02d "$s")/run.json"
			done
			;;
		esac
		case $cmd in
		*make\ repro*) last_repro=$cmd ;;
		esac
		step "$n" "$line" guide "$cmd"
		case $cmd in
		*make\ check\ EXERCISE=*)
			# the guide's remedy for an inconclusive case: more launches
			if ! tail -n 1 "$G/steps.tsv" | awk -F '\t' '$4 == 0 { ok = 1 } END { exit !ok }' &&
				grep -q 'make repro COUNT=40' "$G/out/$n.log" && [ -n "$last_repro" ]; then
				n=$((n + 1))
				step "$n" "$line" remedy "$last_repro COUNT=40"
				n=$((n + 1))
				step "$n" "$line" remedy "$cmd"
			fi
			;;
		esac
		if [ -n "$gate_pid" ] && [ "${cmd#*micro/bin/gate}" = "$cmd" ]; then
			kill -INT "$gate_pid" 2>/dev/null
			wait "$gate_pid" 2>/dev/null
			gate_pid=""
		fi
	done <"$G/commands.tsv"
	[ -z "$gate_pid" ] || { kill -INT "$gate_pid" 2>/dev/null; wait "$gate_pid" 2>/dev/null; }
	return 0
}

setup_file() {
	_common_setup
	export GUIDE_SKIP=""
	gate_probe
	GUIDE_SKIP=$GATE_SKIP
	[ -z "$GUIDE_SKIP" ] || return 0
	export G="$BATS_FILE_TMPDIR/guide" K="$BATS_FILE_TMPDIR/guide/kit"
	mkdir -p "$G/tmp" "$G/out" "$G/shim" "$K"
	# a copy of the kit as an attendee has it (no results, no programs built)
	(cd "$ROOT" && tar --exclude=./.git --exclude=./.cache --exclude=./results \
		--exclude=./micro/bin --exclude=./workshop -cf - .) | (cd "$K" && tar -xf -)
	ln -s "$ROOT/.cache" "$K/.cache" # what make setup fetched once, at home
	printf '#!/bin/sh\n# root: sudo changes nothing but the environment\nexec "$@"\n' >"$G/shim/sudo"
	chmod +x "$G/shim/sudo"
	guide_commands >"$G/commands.tsv"
	: >"$G/steps.tsv"
	(
		set +e
		cd "$K" || exit 1
		# the nested make check must find the outer bats (workshop.bats)
		PATH="$G/shim:$(path_without_bats_libexec)"
		export TMPDIR="$G/tmp" PATH
		unset RESULTS CASES THREADS COUNT GATE TAG RUN A B DIR
		attend
	) 3>&-
}

setup() {
	_common_setup
	[ -z "$GUIDE_SKIP" ] || skip "$GUIDE_SKIP"
}

# status_of PATTERN: the status of the last step whose command matches
# the extended regexp PATTERN.
status_of() {
	awk -F '\t' -v p="$1" '$6 ~ p { s = $4; found = 1 } END { if (found) print s; else print "none" }' "$G/steps.tsv"
}

log_of() { awk -F '\t' -v p="$1" '$6 ~ p { n = $1 } END { print n }' "$G/steps.tsv"; }

@test "the guide as written: the commands a Linux attendee meets, in order, none left out" {
	# every block, from setup to the leader's aggregate
	run cut -f 2 "$G/commands.tsv"
	assert_line --index 0 --regexp '^make setup +#'
	assert_line --partial 'micro/bin/gate --dir /tmp/execlag-ws'
	assert_line --regexp "^sudo make repro GATE='latency=20 workers=1 key=inode' TAG=ex2 "
	assert_line --regexp "^sudo make repro GATE='latency=20 workers=1 key=inode exempt=1' TAG=ex6$"
	assert_line 'make aggregate DIR=workshop'
	refute_line --regexp '# macOS'
	# the Mac's part of exercise 6 (before ex6 exists) is not a Linux step
	[ "$(grep -c 'make compare A=ex2 B=ex6' "$G/commands.tsv")" = 1 ]
	[ "$(cut -f 1 "$G/commands.tsv" | sort -n | paste -s -d ' ')" = "$(cut -f 1 "$G/commands.tsv" | paste -s -d ' ')" ]
	[ "$(wc -l <"$G/commands.tsv")" -ge 25 ]
}

@test "the guide as written: every command succeeds, but the one it says stops on one core class" {
	# the guide as written runs with no blocker
	local bad n fails=0
	echo "# the guide, back to back: $(awk -F '\t' '{ s += $5 } END { printf "%.0f s (%.1f min)", s, s / 60 }' "$G/steps.tsv"), $(wc -l <"$G/steps.tsv") commands" >&3
	awk -F '\t' '$5 >= 5 { printf "#   line %s: %s s  %s\n", $2, $5, $6 }' "$G/steps.tsv" >&3
	# A check may fail only where the guide's remedy (COUNT=40, the two
	# remedy steps right after it) then held; the one-class exercise 5
	# command must fail (the next test).
	bad=$(awk -F '\t' '
		{ kind[$1] = $3; st[$1] = $4; cmd[$1] = $6; line[$1] = $2 }
		END {
			for (i = 1; i in st; i++) {
				if (kind[i] != "guide" || st[i] == 0 || cmd[i] ~ /CLASSES=P,E/) continue
				if (cmd[i] ~ /make check EXERCISE=/ && kind[i + 2] == "remedy" && st[i + 1] == 0 && st[i + 2] == 0) {
					printf "# line %s: %s: held after the guide\047s remedy (COUNT=40)\n", line[i], cmd[i] > "/dev/stderr"
					continue
				}
				print i
			}
		}' "$G/steps.tsv" 2>&3)
	for n in $bad; do
		# E2 alone still not holding after the remedy, for inconclusive
		# cases only, as tests/workshop.bats accepts: never a wrong verdict
		if [ "$(awk -F '\t' -v n=$((n + 2)) '$1 == n { print $3 }' "$G/steps.tsv")" = remedy ] &&
			[ "$(awk -F '\t' -v n=$((n + 1)) '$1 == n { print $4 }' "$G/steps.tsv")" = 0 ] &&
			e2_undecided_only "$G/out/$((n + 2)).log"; then
			echo "# (step $n, as tests/workshop.bats accepts)" >&3
			continue
		fi
		echo "# step $n failed: $(awk -F '\t' -v n="$n" '$1 == n { print "line " $2 ", status " $4 ": " $6 }' "$G/steps.tsv")" >&3
		tail -n 25 "$G/out/$n.log" | sed 's/^/#   /' >&3
		fails=$((fails + 1))
	done
	[ "$fails" = 0 ]
}

@test "the guide as written: exercise 5's command stops at once with the line the guide quotes" {
	[ "$(status_of 'CLASSES=P,E')" = 2 ]
	grep -qF "core class 'P' is not available here (available: all)" "$G/out/$(log_of 'CLASSES=P,E').log"
	grep -qF "core class 'P' is not available here (available: all)" "$ROOT/docs/workshop.md"
}

@test "the guide as written: the one-liner under its 200 ms gate is slower the first time" {
	local times
	times=$(grep '^real' "$G/out/$(log_of 'execlag-ws/test.sh; time').log" | sed 's/^real[[:space:]]*0m//; s/s$//')
	[ "$(printf '%s\n' "$times" | wc -l)" = 2 ] || fail "two times expected: $times"
	echo "# first $(printf '%s\n' "$times" | sed -n 1p) s, second $(printf '%s\n' "$times" | sed -n 2p) s" >&3
	printf '%s\n' "$times" | paste -s - | awk '{ exit !($1 - $2 >= 0.15) }'
}

@test "the guide as written: each exercise's check says what the guide says" {
	local n
	for n in 1 2 3 4 6 7; do
		grep -q "^execlag check: .*(exercise $n, docs/workshop.md)" "$G/out/$(log_of "make check EXERCISE=$n")".log ||
			fail "exercise $n: no check output"
	done
	grep -q 'not applicable' "$G/out/$(log_of 'make check EXERCISE=5').log"
	grep -Eq 'E6 exemption compared +holds' "$G/out/$(log_of 'make check EXERCISE=6').log"
	grep -Eq 'E7 feedback bundle +holds' "$G/out/$(log_of 'make check EXERCISE=7').log"
	# exercise 4 on the 4-worker run: parallel, as the guide's comment says
	grep -q 'parallel' "$G/out/$(log_of 'make check EXERCISE=4').log"
}

@test "the guide as written: the runs carry the guide's names, and the leader's table has one row per run" {
	local runs rows
	ls -d "$K"/results/*-ex2 "$K"/results/*-ex6 >/dev/null
	runs=$(ls -d "$K"/workshop/seat* | wc -l)
	# the gate's first try, exercises 1, 2, 3 (path), 4 (4 workers), 6
	[ "$runs" -ge 6 ]
	rows=$(grep -cE '^\| [0-9]+ \| ' "$G/out/$(log_of 'make aggregate DIR=workshop').log")
	# the compact table and the full one: one row per run in each
	[ "$rows" = $((2 * runs)) ] || fail "$rows table rows for $runs runs"
	[ -s "$K/workshop/aggregate.svg" ]
}
