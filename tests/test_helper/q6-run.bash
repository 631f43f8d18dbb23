# q6_run CMD...: CMD run as bats' `run --separate-stderr` runs it, for a
# test's loop of many short commands (refusals, --help): its exit status,
# stdout and stderr in $status, $output and $stderr (their last newlines
# dropped, as run drops them), CMD's own environment assignments passed on
# as for run.  Without run's bookkeeping, some 45 ms a call here: a test
# of forty refusals spent two seconds of CPU in it.  ($lines is not set:
# assert_line needs run.)
q6_run() {
	local q6_err="$BATS_TEST_TMPDIR/.q6_run.err"
	status=0
	output=$("$@" 2>"$q6_err") || status=$?
	# the file read by the shell (a $(<file) is a process too)
	stderr=""
	IFS= read -r -d '' stderr <"$q6_err" || :
	while [[ $stderr == *$'\n' ]]; do stderr=${stderr%$'\n'}; done
}
