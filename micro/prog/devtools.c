/* devtools - print the Developer Tools authorisation of the responsible app
 * (the terminal) as one word, for scripts/probe/sysinfo; with --responsible, the
 * path of that app (responsible.h).
 *
 *   devtools [--why] [--runtime] [--responsible]
 *
 * Words: not-determined, restricted, denied, authorized (EPDeveloperToolStatus
 * 0..3, docs/macos.md §13), unknown (cannot be read), n/a (not macOS).
 * Reading never changes the setting. */
#define _POSIX_C_SOURCE 200809L
#include "devtoolsauth.h"
#include "responsible.h"
#include "opts.h"
#include "util.h"

#include <stdio.h>
#include <string.h>

static void usage(FILE *f)
{
	fputs("usage: devtools [--why] [--runtime] [--responsible]\n"
	      "Print the Developer Tools authorisation of the app responsible for this\n"
	      "process (the terminal), read from ExecutionPolicy (EPDeveloperTool) through\n"
	      "the Objective-C runtime, as one word:\n"
	      "  not-determined, restricted, denied, authorized, unknown (cannot be read),\n"
	      "  n/a (not macOS).\n"
	      "  --why      when the word is unknown or n/a, say why on stderr\n"
	      "  --runtime  ask the Objective-C runtime (or libSystem) even off macOS\n"
	      "             (for tests, with EXECLAG_OBJC_LIB, EXECLAG_EP_FRAMEWORK and\n"
	      "             EXECLAG_LIBSYSTEM naming stand-ins)\n"
	      "  --responsible  print instead the path of the app responsible for this\n"
	      "             process (responsibility_get_pid_responsible_for_pid and\n"
	      "             proc_pidpath, through dlsym): a path, self (the process is\n"
	      "             its own), unknown, or n/a (not macOS)\n"
	      "Environment: EXECLAG_OBJC_LIB (default " DEVTOOLS_OBJC_LIB "),\n"
	      "  EXECLAG_EP_FRAMEWORK (default " DEVTOOLS_EP_FRAMEWORK "),\n"
	      "  EXECLAG_LIBSYSTEM (default: the process's own symbols).\n"
	      "Exit: 0 (whatever the answer), 1 cannot write, 2 bad usage.\n", f);
}

int main(int argc, char **argv)
{
	char why[512] = "", path[RESPONSIBLE_PATH_MAX];
	const char *word;
	int want_why = 0, runtime = 0, responsible = 0;
	const struct opt opts[] = {
		OPT_FLAG("--why", &want_why), OPT_FLAG("--runtime", &runtime),
		OPT_FLAG("--responsible", &responsible), OPT_END
	};

	progname = "devtools";
	opts_parse(argc, argv, opts, OPTS_NONE, usage);
	if (responsible) {
		word = runtime ? responsible_dl_read(path, sizeof path, why, sizeof why)
			       : responsible_platform(path, sizeof path, why, sizeof why);
		if (strcmp(word, "path") == 0)
			word = path;
	} else {
		word = runtime ? devtools_objc_read(why, sizeof why)
			       : devtools_platform(why, sizeof why);
	}
	if (printf("%s\n", word) < 0 || fflush(stdout) != 0)
		die(EXIT_FAIL, "cannot write to stdout:");
	if (want_why && why[0] && (strcmp(word, "unknown") == 0 || strcmp(word, "n/a") == 0))
		fprintf(stderr, "devtools: %s\n", why);
	return EXIT_OK;
}
