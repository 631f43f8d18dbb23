# r5-read.bash - `load test_helper/r5-read`: the shell's own reading of a
# small file where a test read it through awk, tr, wc or sort (a process
# each in a test body is 6-12 ms), each without bats' debug trap
# (kit_untraced, checks/kit.bash).  tests/launch.bats, launch-sim.bats,
# kills.bats.

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
	while IFS= read -r _l || [ -n "$_l" ]; do
		[[ "$_out" == *" $_l "* ]] || _out+="$_l "
	done <"$2"
	printf -v "$1" '%s' "${_out# }"
}

# not_twice VAR FILE: how many distinct lines of FILE are there other than
# twice (sort -n | uniq -c | awk '$1 != 2' | wc -l)
not_twice() { kit_untraced _not_twice "$@"; }
_not_twice() {
	local _l _i _v=() _c=() _k=0
	while IFS= read -r _l || [ -n "$_l" ]; do
		for ((_i = 0; _i < ${#_v[@]}; _i++)); do
			[ "${_v[_i]}" != "$_l" ] || break
		done
		_v[_i]=$_l
		_c[_i]=$((${_c[_i]:-0} + 1))
	done <"$2"
	for _i in "${_c[@]}"; do [ "$_i" = 2 ] || _k=$((_k + 1)); done
	printf -v "$1" '%s' "$_k"
}

# count_of VAR FILE PATTERN: how many lines of FILE match PATTERN, a bash
# glob of the whole line (grep -c of the same regular expression)
count_of() { kit_untraced _count_of "$@"; }
_count_of() {
	local _l _k=0
	while IFS= read -r _l || [ -n "$_l" ]; do
		# shellcheck disable=SC2053 # PATTERN is a glob
		[[ $_l != $3 ]] || _k=$((_k + 1))
	done <"$2"
	printf -v "$1" '%s' "$_k"
}
