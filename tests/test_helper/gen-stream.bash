# Loaded by the files that feed redact a big stream of identifying values
# (tests/redact.bats, tests/feedback.bats): `load test_helper/gen-stream`.

# gen_stream IN EXPECTED BYTES LIST: about BYTES of input (IN) holding the
# values of LIST (PLACEHOLDER<TAB>VALUE lines) in random case, prefixes of
# them, NUL, 0xff and 0x80 bytes, and no newline in the first 40%: EXPECTED
# is IN with every value replaced by its placeholder. Separators are bytes
# no value holds, so no value is formed across two pieces.
gen_stream() {
	LIST=$4 awk -v bytes="$3" -v fin="$1.raw" -v fexp="$2.raw" 'BEGIN {
		srand(11)
		n = split(ENVIRON["LIST"], l, "\n")
		for (i = 1; i <= n; i++) { t = index(l[i], "\t"); ph[i] = substr(l[i], 1, t - 1); v[i] = substr(l[i], t + 1) }
		sep = " ,{}:\"\001\002\003"
		while (size < bytes) {
			i = int(rand() * n) + 1
			if (rand() < 0.7) {
				s = ""
				for (k = 1; k <= length(v[i]); k++) {
					c = substr(v[i], k, 1)
					s = s (rand() < 0.5 ? toupper(c) : tolower(c))
				}
				printf "%s", s >fin; printf "%s", ph[i] >fexp
			} else {
				# a prefix that holds no whole value, then a separator
				p = substr(v[i], 1, int(rand() * (length(v[i]) - 1)) + 1)
				for (j = 1; j <= n; j++) if (index(tolower(p), tolower(v[j]))) p = substr(p, 1, 1)
				s = p substr(sep, int(rand() * length(sep)) + 1, 1)
				printf "%s", s >fin; printf "%s", s >fexp
			}
			size += length(s)
			m = int(rand() * 4)
			s = ""
			for (k = 0; k < m; k++) s = s substr(sep, int(rand() * length(sep)) + 1, 1)
			if (size > bytes * 0.4 && rand() < 0.005) s = s "\n"
			printf "%s", s >fin; printf "%s", s >fexp
			size += length(s)
		}
	}'
	tr '\001\002\003' '\000\377\200' <"$1.raw" >"$1"
	tr '\001\002\003' '\000\377\200' <"$2.raw" >"$2"
	rm -f "$1.raw" "$2.raw"
}
