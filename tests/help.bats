#!/usr/bin/env bats
# make help and make alone: a new user's first commands.  make help lists
# the entry points in one screen; make alone builds what make repro would
# and says what to run next.

load test_helper/common-setup

setup() { _common_setup; }

@test "make help: the entry points in one screen (<= 24 lines, <= 80 columns), each a Makefile target" {
	run --separate-stderr make -s --no-print-directory -C "$ROOT" help
	assert_success
	assert_equal "$stderr" ""
	[ "${#lines[@]}" -le 24 ] || fail "${#lines[@]} lines"
	local l
	for l in "${lines[@]}"; do
		# characters, as wc -m counts them (the shell's ${#}, the same locale)
		[ "${#l}" -le 80 ] || fail "longer than 80 columns: $l"
	done
	assert_line --regexp '^  make doctor +five seconds'
	assert_line --regexp '^  make repro +measure'
	assert_line --regexp '^  make test +'
	assert_line --regexp '^  make feedback +'
	assert_line --regexp '^  make compare A=<run> B=<run> +'
	assert_line --regexp '^  make check +'
	# (was: "every target make help names is one the Makefile has")
	# (the same make help's output: run once)
	local t missing= known
	# the targets make knows (its database, whatever file defines them), not the Makefile's text
	known=$(make -C "$ROOT" -pRrq .execlag-no-such-target 2>/dev/null | sed -n -E 's/^([a-zA-Z][a-zA-Z0-9_-]*):([^=]|$).*/\1/p')
	[ -n "$known" ] || fail "make printed no targets"
	# the names make help gives, read off its lines by the shell (were
	# sed -n 's/^  make \([a-z-]*\).*/\1/p', then the lint line's names,
	# sed -n 's/^  make \(lint |.*\)$/\1/p' | tr -d '|', split as words)
	local l names=() more=() re1='^  make ([a-z-]*)' re2='^  make (lint \|.*)$'
	for l in "${lines[@]}"; do
		[[ ! $l =~ $re1 ]] || [ -z "${BASH_REMATCH[1]}" ] || names+=("${BASH_REMATCH[1]}")
	done
	for l in "${lines[@]}"; do
		# shellcheck disable=SC2206 # split into words, as the $( ) was
		[[ ! $l =~ $re2 ]] || more+=(${BASH_REMATCH[1]//|/})
	done
	for t in "${names[@]}" "${more[@]}"; do
		# a whole line of known (grep -qx; a target's name holds no pattern character)
		[[ $'\n'"$known"$'\n' == *$'\n'"$t"$'\n'* ]] || missing="$missing $t"
	done
	[ -z "$missing" ] || fail "make help names targets the Makefile lacks:$missing"
}

@test "make alone runs its dependency step, builds every program make repro runs, says what to run next" {
	run --separate-stderr make -s --no-print-directory -C "$ROOT"
	assert_success
	assert_equal "${lines[${#lines[@]} - 1]}" "execlag: built. Next: make repro (measure here, the plain answer last), make doctor (five seconds), make help (every entry point)"
	local p
	for p in $(make -s --no-print-directory -C "$ROOT" print-progs); do
		[ -x "$ROOT/$p" ] || fail "$p was not built"
	done
	# the default goal runs the dependency step make repro runs (scripts/tool/deps run)
	run -0 make -n --no-print-directory -C "$ROOT"
	assert_output --partial "sh scripts/tool/deps run"
}
