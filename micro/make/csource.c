/* csource.c - the C source of a compiled unit (csource.h). */
#define _POSIX_C_SOURCE 200809L
#include "csource.h"
#include "util.h"

#include <stdlib.h>
#include <string.h>

/* s with every backslash and double quote escaped by a backslash. */
static char *escape_quoted(const char *s)
{
	char *out = xmalloc(2 * strlen(s) + 1), *o = out;

	for (; *s; s++) {
		if (*s == '\\' || *s == '"')
			*o++ = '\\';
		*o++ = *s;
	}
	*o = '\0';
	return out;
}

/* The padding (--size): the bytes of the file pad, by the assembler's
 * .incbin, in a read-only data section, as execlag_pad; a program that
 * refers to it keeps it.  The path is quoted twice: for the assembler's
 * string, then for C's. */
static char *pad_block(const char *pad)
{
	char *once, *twice, *text;

	if (!pad)
		return xstrdup("");
	once = escape_quoted(pad);
	twice = escape_quoted(once);
	text = xasprintf(
		"__asm__(\n"
		"#if defined(__APPLE__)\n"
		"\t\".section __TEXT,__const\\n\"\n"
		"#else\n"
		"\t\".section .rodata\\n\"\n"
		"#endif\n"
		"\t\".p2align 4\\n\"\n"
		"\t\"execlag_pad:\\n\"\n"
		"\t\".incbin \\\"%s\\\"\\n\"\n"
		"\t\".text\\n\");\n"
		"extern const unsigned char execlag_pad[] __asm__(\"execlag_pad\");\n",
		twice);
	free(once);
	free(twice);
	return text;
}

char *csource(enum unit u, const char *nonce, const char *pad)
{
	char *block = pad_block(pad), *text;

	switch (u) {
	case U_LIB:
		text = xasprintf(
			"%s"
			"const char *execlag_nonce(void);\n"
			"const char *execlag_nonce(void){ return \"%s\"; }\n"
			"%s",
			block, nonce, pad ?
			"const unsigned char *execlag_padding(void);\n"
			"const unsigned char *execlag_padding(void){ return execlag_pad; }\n" : "");
		break;
	case U_HOST:
		text = xasprintf(
			"#include <dlfcn.h>\n"
			"#include <stdio.h>\n"
			"static const char nonce[] = \"%s\";\n"
			"int main(int argc, char **argv)\n"
			"{\n"
			"\tvoid *h;\n"
			"\tconst char *(*f)(void);\n"
			"\tif (argc != 2)\n"
			"\t\treturn argc > 99 ? nonce[argc %% (int)sizeof nonce] : 3;\n"
			"\th = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);\n"
			"\tif (!h) { fprintf(stderr, \"%%s\\n\", dlerror()); return 3; }\n"
			"\t*(void **)&f = dlsym(h, \"execlag_nonce\");\n"
			"\tif (!f) { fprintf(stderr, \"%%s\\n\", dlerror()); return 3; }\n"
			"\tputs(f());\n"
			"\treturn 0;\n"
			"}\n", nonce);
		break;
	case U_EXE:
	default:
		text = xasprintf(
			"%s%s"
			"static const char nonce[] = \"%s\";\n"
			"int main(int argc, char **argv){ (void)argv;%s "
			"return argc > 99 ? nonce[argc %% (int)sizeof nonce]%s : %d; }\n",
			mk.payload == P_KILL ? "#include <signal.h>\n" : "",
			block, nonce,
			mk.payload == P_KILL ? " raise(SIGKILL);" : "",
			pad ? " + execlag_pad[argc]" : "",
			mk.payload == P_FAIL ? 3 : 0);
		break;
	}
	free(block);
	return text;
}
