# run_sep and run_both, for the files whose tests run a command hundreds of
# times (`load test_helper/quickrun`): what bats' `run` sets, at about a third
# of its cost.  bats 1.8.2's `run --separate-stderr` makes a temporary file
# for each call (mktemp, in a $( ) of its own) and runs the command inside a
# function in a subshell (a fork more than the command's own): some 60 ms of
# CPU a call here, against 20 ms for the command alone.  These run it with
# its output into two files of the test's, in no subshell.
#
# run_sep [-N] CMD...: CMD's status, its stdout in output and lines, its
# stderr in stderr and stderr_lines, each as `run --separate-stderr` sets
# them (output as $( ) gives it, the trailing newlines dropped; stderr and
# the lines as bats reads them); -N: fail unless the status is N.
# run_both [-N] CMD...: the same with stdout and stderr in output and lines
# together, as `run` sets them.
# CMD runs in the test's shell: a function of the test that changes folder
# or execs must give itself a ( ) of its own.  Both run without bats'
# DEBUG trap (kit_untraced, checks/kit.bash: ~0.3 ms a command, a dozen
# here, and in CMD's fork before its exec); a failure of -N is reported
# at the test's line.
run_sep() {
	_qr_run sep "$@"
}
run_both() {
	_qr_run both "$@"
}
_qr_run() { kit_untraced __qr_run "$@"; }
__qr_run() {
	local _qr_how=$1 _qr_want="" _qr_o="$BATS_TEST_TMPDIR/.quickrun.out" _qr_e="$BATS_TEST_TMPDIR/.quickrun.err"
	shift
	case $1 in -[0-9]*) _qr_want=${1#-}; shift ;; esac
	if [ "$_qr_how" = sep ]; then
		"$@" >"$_qr_o" 2>"$_qr_e" && status=0 || status=$?
	else
		"$@" >"$_qr_o" 2>&1 && status=0 || status=$?
	fi
	output=""
	IFS= read -r -d '' output <"$_qr_o" || true
	while [ "${output%$'\n'}" != "$output" ]; do output=${output%$'\n'}; done
	IFS=$'\n' read -d '' -r -a lines <<<"$output" || true
	# (run_both leaves stderr as it was, as run does)
	if [ "$_qr_how" = sep ]; then
		stderr="" stderr_lines=()
		# (as $( ) gives it: blanks kept, the trailing newlines dropped)
		IFS= read -d '' -r stderr <"$_qr_e" || true
		while [ "${stderr%$'\n'}" != "$stderr" ]; do stderr=${stderr%$'\n'}; done
		IFS=$'\n' read -d '' -r -a stderr_lines <<<"$stderr" || true
	fi
	[ -z "$_qr_want" ] || [ "$status" = "$_qr_want" ] ||
		fail "expected exit status $_qr_want, got $status: $*"$'\n'"$output"$'\n'"$stderr"
}
