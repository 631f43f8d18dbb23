# r7-read.bash - the shell's own reading of a file where a test read it
# through sed, grep, head, tail or cut (a process each, 6-12 ms in a test
# body); needs shellread.bash's file_lines (load test_helper/shellread).

# r7_head_run FILE N: what `run -0 sed -n '1,Np' FILE` sets: output (FILE's
# first N lines, the trailing newlines dropped, as $( ) gives them), lines
# (as bats reads them: no empty line) and status 0
r7_head_run() { kit_untraced _r7_head_run "$@"; }
_r7_head_run() {
	local l i=0
	[ -f "$1" ] || fail "r7_head_run: no file $1"
	file_lines "$1"
	output=""
	for l in "${flines[@]}"; do
		[ "$i" -lt "$2" ] || break
		output+=$l$'\n'
		i=$((i + 1))
	done
	while [ "${output%$'\n'}" != "$output" ]; do output=${output%$'\n'}; done
	lines=()
	IFS=$'\n' read -d '' -r -a lines <<<"$output" || true
	status=0
}

# r7_line_numbers FILE ERE: r7_n, the numbers (from 1) of FILE's lines that
# match ERE (bash's [[ =~ ]]), a line each, as grep -n ERE FILE | cut -d:
# -f1 gives them in a $( ) (the patterns here read the same as BRE and ERE)
r7_line_numbers() { kit_untraced _r7_line_numbers "$@"; }
_r7_line_numbers() {
	local l i=0
	file_lines "$1"
	r7_n=""
	for l in "${flines[@]}"; do
		i=$((i + 1))
		[[ "$l" =~ $2 ]] || continue
		r7_n+=${r7_n:+$'\n'}$i
	done
}

# r7_has_line FILE TEXT: status 0 where a line of FILE holds TEXT, as grep
# -q -F TEXT FILE (1 where none does, or no FILE)
r7_has_line() { kit_untraced _r7_has_line "$@"; }
_r7_has_line() {
	local l
	file_lines "$1"
	for l in "${flines[@]}"; do
		[[ "$l" != *"$2"* ]] || return 0
	done
	return 1
}

# r7_count_fixed TEXT FILE [TEXT...]: r7_n, how many lines of FILE hold
# TEXT, or any of the TEXTs (grep -c -F -e TEXT ...)
r7_count_fixed() { kit_untraced _r7_count_fixed "$@"; }
_r7_count_fixed() {
	local l t
	local -a texts
	texts=("$1")
	file_lines "$2"
	shift 2
	texts=("${texts[@]}" "$@")
	r7_n=0
	for l in "${flines[@]}"; do
		for t in "${texts[@]}"; do
			if [[ "$l" == *"$t"* ]]; then
				r7_n=$((r7_n + 1))
				break
			fi
		done
	done
}

# r7_count_ci WORD FILE...: output and lines as `run grep -c -i WORD FILE...`
# sets them for two files or more ("FILE:COUNT" a line each; WORD plain
# ASCII, matched without case), status as grep's (0 where a line held it)
r7_count_ci() { kit_untraced _r7_count_ci "$@"; }
_r7_count_ci() {
	local word=$1 f l n any=1 was=1
	shift
	# (nocasematch as it was after: shopt -q, no $( ))
	shopt -q nocasematch || was=0
	shopt -s nocasematch
	output=""
	for f in "$@"; do
		file_lines "$f"
		n=0
		for l in "${flines[@]}"; do
			[[ "$l" != *"$word"* ]] || n=$((n + 1))
		done
		[ "$n" = 0 ] || any=0
		output+=${output:+$'\n'}$f:$n
	done
	[ "$was" = 1 ] || shopt -u nocasematch
	lines=()
	IFS=$'\n' read -d '' -r -a lines <<<"$output" || true
	status=$any
}

# r7_lines_from FILE PREFIX: r7_n, FILE's lines that start with PREFIX, a
# line each, as $(grep '^PREFIX' FILE) gives them (PREFIX plain text)
r7_lines_from() { kit_untraced _r7_lines_from "$@"; }
_r7_lines_from() {
	local l
	file_lines "$1"
	r7_n=""
	for l in "${flines[@]}"; do
		[[ "$l" != "$2"* ]] || r7_n+=${r7_n:+$'\n'}$l
	done
}
