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
