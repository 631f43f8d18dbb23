# h3-untraced.bash - `load test_helper/h3-untraced` (after common-setup),
# then `h3_untrace FUNC...` in setup, after _common_setup: each FUNC (a
# function defined by then: bats-assert's, or the test file's own helper)
# runs from then on under kit_untraced (checks/kit.bash), without bats'
# DEBUG trap.  The trap runs before every command of a test and of the
# functions it calls (~0.3 ms each): bats-assert's assert_line and
# refute_line walk every line of the output, a file's helpers read a file
# line by line, and each line is several commands.  Status and output are
# the function's own; a failure inside is reported at the calling line.
#
# FUNC's body is kept as _h3u_FUNC; FUNC becomes kit_untraced _h3u_FUNC.
# (declare -f written to a file and read back by the shell: a command
# substitution is a fork of bats' large shell, every test)
h3_untrace() {
	local f def file="${BATS_TEST_TMPDIR:?}/.h3-untraced"
	for f in "$@"; do
		declare -F "_h3u_$f" >/dev/null && continue
		declare -f "$f" >"$file" || return 1
		def=""
		IFS= read -r -d '' def <"$file" || :
		# (the first line is "FUNC () ")
		eval "_h3u_$f${def#"$f"}"
		eval "$f() { kit_untraced _h3u_$f \"\$@\"; }"
	done
	# (the file left for bats to remove with the test's folder: an rm is
	# a process)
}
