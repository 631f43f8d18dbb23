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
