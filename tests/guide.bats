#!/usr/bin/env bats
# docs/workshop.md's command blocks, as a Linux attendee meets them: read
# from the guide, no command run.  Running them back to back under the
# calibration gate is make test-live's (tests/live/guide.bats), which
# checks this list too.

load test_helper/common-setup

# guide_commands: the Linux attendee's command lines, "LINE<TAB>COMMAND",
# in order (the simulated lines, "# no root", are the other path: tests/workshop-sim.bats).
guide_commands() {
	awk '
		/^\*\*(Going offline first|The exemption) \(macOS\)\.\*\*/ { mac = 1 }
		/^\*\*Linux, under the gate:\*\*/ { mac = 0 }
		/^```/ { sh = !inblock && $0 == "```sh"; inblock = !inblock; next }
		inblock && sh && !mac && $0 !~ /#[[:space:]]*macOS/ && $0 !~ /#[[:space:]]*no root/ && $0 !~ /^[[:space:]]*$/ {
			printf "%d\t%s\n", NR, $0
		}' "$ROOT/docs/workshop.md"
}

setup_file() {
	_common_setup
	export G="$BATS_FILE_TMPDIR/guide"
	mkdir -p "$G"
	guide_commands >"$G/commands.tsv"
}

setup() {
	_common_setup
}

# read_commands: $G/commands.tsv's commands (the second column) into
# output and lines as `run cut -f 2` sets them, its line numbers (the
# first) into nums, and in compares how many of its lines hold
# "make compare A=ex2 B=ex6" (grep -c's count), and in disorder the
# first line number smaller than the one before it ("" when none is: the
# numbers as cut -f 1 | sort -n gives them)
read_commands() {
	local l c n prev=""
	lines=() output="" nums=() compares=0 disorder=""
	while IFS= read -r l; do
		n=${l%%$'\t'*}
		[ -n "$disorder" ] || [ -z "$prev" ] || [ "$prev" -le "$n" ] || disorder="line $n after line $prev"
		prev=$n
		nums+=("$n")
		c=${l#*$'\t'}
		lines+=("${c%%$'\t'*}")
		[[ $l != *'make compare A=ex2 B=ex6'* ]] || compares=$((compares + 1))
	done <"$G/commands.tsv"
	local IFS=$'\n'
	output="${lines[*]}"
}

@test "the guide as written: the commands a Linux attendee meets, in order, none left out" {
	# every block, from setup to the leader's aggregate
	# (the commands, as run cut -f 2 would give them in output and lines,
	# and the tallies below, read by the shell: kit_untraced, no process)
	local nums=() compares=0 disorder
	kit_untraced read_commands
	assert_line --index 0 --regexp '^make setup +#'
	assert_line --partial 'micro/bin/gate --dir /tmp/execlag-ws'
	assert_line --regexp "^sudo make repro GATE='latency=20 workers=1 key=inode' TAG=ex2 "
	assert_line --regexp "^sudo make repro GATE='latency=20 workers=1 key=inode exempt=1' TAG=ex6$"
	assert_line 'make aggregate DIR=workshop'
	refute_line --regexp '# macOS'
	# the Mac's part of exercise 6 (before ex6 exists) is not a Linux step
	# (was grep -c of the file)
	assert_equal "$compares" 1
	# the line numbers in order (was: cut -f 1 | sort -n, the same as cut -f 1)
	assert_equal "$disorder" ""
	# (was wc -l)
	[ "${#nums[@]}" -ge 25 ]
}
