# Helpers of tests/doctor.bats (and hang.bats, health.bats): the shell's
# own reading of files where a test read them through grep, sed, ls, cat or
# find (a process each, 6-12 ms in a test body).

# mac_advise and mac_conditions: tests/test_helper/mac-advise.bash's
# shellcheck source=mac-advise.bash
. "${BASH_SOURCE[0]%/*}/mac-advise.bash"

# count_names DIR: how many names ls would list in DIR (0 without DIR)
count_names() { kit_untraced _count_names "$@"; }
_count_names() {
	local f n=0
	for f in "$1"/*; do
		[ -e "$f" ] || [ -L "$f" ] || continue
		n=$((n + 1))
	done
	echo "$n"
}

# file_lines FILE: FILE's lines in the array flines (none without FILE)
file_lines() { kit_untraced _file_lines "$@"; }
_file_lines() {
	flines=()
	[ -f "$1" ] || return 0
	# (read, not mapfile: bash 3.2, a Mac's, has none)
	local l
	while IFS= read -r l || [ -n "$l" ]; do flines[${#flines[@]}]=$l; done <"$1"
}

# grep_ere [-v] FILE ERE: FILE's lines that match ERE (bash's [[ =~ ]],
# POSIX ERE as grep -E's; -v: that do not) as run's output: $output,
# $lines, $status 0 with a line, 1 without (grep's)
grep_ere() { kit_untraced _grep_ere "$@"; }
_grep_ere() {
	local l v=0
	[ "$1" != -v ] || { v=1; shift; }
	file_lines "$1"
	output='' lines=()
	for l in "${flines[@]}"; do
		if [[ "$l" =~ $2 ]]; then [ $v = 0 ] || continue; else [ $v = 1 ] || continue; fi
		lines[${#lines[@]}]=$l
	done
	if [ ${#lines[@]} -eq 0 ]; then status=1; else status=0; fi
	local IFS=$'\n'
	output="${lines[*]}"
}

# set_key FILE KEY VALUE: FILE's lines KEY=... become KEY=VALUE (sed
# 's/^KEY=.*/KEY=VALUE/' into FILE), in the shell
set_key() { kit_untraced _set_key "$@"; }
_set_key() {
	local l text=''
	file_lines "$1"
	for l in "${flines[@]}"; do
		[[ "$l" == "$2="* ]] && l="$2=$3"
		text+=$l$'\n'
	done
	printf '%s' "$text" >"$1"
}

# md_section FILE HEADING [END]: sed -n '/^HEADING/,/^END/p' FILE (END
# "## " unless given) as run's output ($output, $lines, $status 0): from
# the first line that begins with HEADING to the next line beginning with
# END after it, both kept, and again from any later HEADING
md_section() { kit_untraced _md_section "$@"; }
_md_section() {
	local l in=0 end=${3:-## }
	file_lines "$1"
	lines=()
	for l in "${flines[@]}"; do
		if [ $in = 0 ]; then
			[[ "$l" == "$2"* ]] || continue
			in=1
			lines[${#lines[@]}]=$l
			continue
		fi
		lines[${#lines[@]}]=$l
		[[ "$l" == "$end"* ]] && in=0
	done
	status=0
	local IFS=$'\n'
	output="${lines[*]}"
}

# one_dir DIR: the folder in DIR (find DIR -mindepth 1 -maxdepth 1 -type d,
# dot-named ones too), in $dir, in the shell; with more than one, the last
one_dir() { kit_untraced _one_dir "$@"; }
_one_dir() {
	local f
	dir=
	for f in "$1"/* "$1"/.[!.]* "$1"/..?*; do
		[ -d "$f" ] && [ ! -L "$f" ] && dir=$f
	done
	return 0
}

# wait_gone PATTERN TENTHS: wait, up to TENTHS tenths of a second, until no
# process's command line matches PATTERN (pgrep -f's); then return (the
# caller asserts).  On Linux with bash 4 or later: pgrep, then the
# processes it found looked at in /proc (an ended one, even a zombie not
# yet reaped, has an empty command line) every tenth of a second, the tenth
# a read's timeout on a FIFO nobody writes, until they have ended; then
# pgrep again (for any started since): a process or two, not two a look.
# Elsewhere pgrep and sleep 0.1 a look, as before.
wait_gone() {
	local pat=$1 max=$2 i=0 pids p alive c tick="$BATS_TEST_TMPDIR/.wait-gone-tick"
	if [ "${BASH_VERSINFO[0]}" -lt 4 ] || [ ! -d /proc/self ]; then
		while pgrep -f "$pat" >/dev/null && [ $i -lt "$max" ]; do sleep 0.1; i=$((i + 1)); done
		return 0
	fi
	[ -p "$tick" ] || mkfifo "$tick"
	exec 6<>"$tick"
	while [ $i -lt "$max" ] && pids=$(pgrep -f "$pat"); do
		while [ $i -lt "$max" ]; do
			alive=
			for p in $pids; do
				c=
				{ IFS= read -r -d "" c <"/proc/$p/cmdline"; } 2>/dev/null || :
				[ -z "$c" ] || alive=1
			done
			[ -n "$alive" ] || break
			read -r -t 0.1 -u 6 c || :
			i=$((i + 1))
		done
	done
	exec 6<&-
	return 0
}

# The readers below set a variable of the caller's (VAR, or found) or what
# bats' run sets, as the command they stand in for would give it.

# meta_of VAR FILE KEY: the value of FILE's line "meta<TAB>KEY<TAB>VALUE"
# (awk -F '\t' '$1=="meta" && $2==KEY {print $3}')
meta_of() { kit_untraced _meta_of "$@"; }
_meta_of() {
	local _a _b _c _out=""
	while IFS=$'\t' read -r _a _b _c _; do
		[ "$_a" != meta ] || [ "$_b" != "$3" ] || _out+="$_c"$'\n'
	done <"$2"
	printf -v "$1" '%s' "${_out%$'\n'}"
}

# joined VAR FILE: FILE's lines, each followed by a space (tr '\n' ' ')
joined() { kit_untraced _joined "$@"; }
_joined() {
	local _l _out=""
	while IFS= read -r _l; do _out+="$_l "; done <"$2"
	_out+=$_l
	printf -v "$1" '%s' "$_out"
}

# nlines VAR FILE: FILE's lines (wc -l: those ended by a newline)
nlines() { kit_untraced _nlines "$@"; }
_nlines() {
	local _l _k=0
	while IFS= read -r _l; do _k=$((_k + 1)); done <"$2"
	printf -v "$1" '%s' "$_k"
}

# distinct VAR FILE: FILE's distinct lines, each followed by a space, in
# the order first seen (sort -u | tr '\n' ' ' where there is one: the
# tests compare with one value)
distinct() { kit_untraced _distinct "$@"; }
_distinct() {
	local _l _out=" "
	file_lines "$2"
	for _l in "${flines[@]}"; do
		[[ "$_out" == *" $_l "* ]] || _out+="$_l "
	done
	printf -v "$1" '%s' "${_out# }"
}

# not_twice VAR FILE: how many distinct lines of FILE are there other than
# twice (sort -n | uniq -c | awk '$1 != 2' | wc -l)
not_twice() { kit_untraced _not_twice "$@"; }
_not_twice() {
	local _l _i _v=() _c=() _k=0
	file_lines "$2"
	for _l in "${flines[@]}"; do
		for ((_i = 0; _i < ${#_v[@]}; _i++)); do
			[ "${_v[_i]}" != "$_l" ] || break
		done
		_v[_i]=$_l
		_c[_i]=$((${_c[_i]:-0} + 1))
	done
	for _i in "${_c[@]}"; do [ "$_i" = 2 ] || _k=$((_k + 1)); done
	printf -v "$1" '%s' "$_k"
}

# count_of VAR FILE PATTERN: how many lines of FILE match PATTERN, a bash
# glob of the whole line (grep -c of the same regular expression)
count_of() { kit_untraced _count_of "$@"; }
_count_of() {
	local _l _k=0
	file_lines "$2"
	for _l in "${flines[@]}"; do
		# shellcheck disable=SC2053 # PATTERN is a glob
		[[ $_l != $3 ]] || _k=$((_k + 1))
	done
	printf -v "$1" '%s' "$_k"
}

# head_run FILE N: what `run -0 sed -n '1,Np' FILE` sets: output (FILE's
# first N lines, the trailing newlines dropped, as $( ) gives them), lines
# (as bats reads them: no empty line) and status 0
head_run() { kit_untraced _head_run "$@"; }
_head_run() {
	local l i=0
	[ -f "$1" ] || fail "head_run: no file $1"
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

# line_numbers FILE ERE: found, the numbers (from 1) of FILE's lines that
# match ERE (bash's [[ =~ ]]), a line each, as grep -n ERE FILE | cut -d:
# -f1 gives them in a $( ) (the patterns here read the same as BRE and ERE)
line_numbers() { kit_untraced _line_numbers "$@"; }
_line_numbers() {
	local l i=0
	file_lines "$1"
	found=""
	for l in "${flines[@]}"; do
		i=$((i + 1))
		[[ "$l" =~ $2 ]] || continue
		found+=${found:+$'\n'}$i
	done
}

# has_text FILE TEXT: status 0 where a line of FILE holds TEXT, as grep
# -q -F TEXT FILE (1 where none does, or no FILE)
has_text() { kit_untraced _has_text "$@"; }
_has_text() {
	local l
	file_lines "$1"
	for l in "${flines[@]}"; do
		[[ "$l" != *"$2"* ]] || return 0
	done
	return 1
}

# count_fixed TEXT FILE [TEXT...]: found, how many lines of FILE hold
# TEXT, or any of the TEXTs (grep -c -F -e TEXT ...)
count_fixed() { kit_untraced _count_fixed "$@"; }
_count_fixed() {
	local l t
	local -a texts
	texts=("$1")
	file_lines "$2"
	shift 2
	texts=("${texts[@]}" "$@")
	found=0
	for l in "${flines[@]}"; do
		for t in "${texts[@]}"; do
			if [[ "$l" == *"$t"* ]]; then
				found=$((found + 1))
				break
			fi
		done
	done
}

# count_ci_run WORD FILE...: output and lines as `run grep -c -i WORD FILE...`
# sets them for two files or more ("FILE:COUNT" a line each; WORD plain
# ASCII, matched without case), status as grep's (0 where a line held it)
count_ci_run() { kit_untraced _count_ci_run "$@"; }
_count_ci_run() {
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

# lines_from FILE PREFIX: found, FILE's lines that start with PREFIX, a
# line each, as $(grep '^PREFIX' FILE) gives them (PREFIX plain text)
lines_from() { kit_untraced _lines_from "$@"; }
_lines_from() {
	local l
	file_lines "$1"
	found=""
	for l in "${flines[@]}"; do
		[[ "$l" != "$2"* ]] || found+=${found:+$'\n'}$l
	done
}
