/* feedback.h - feedback.txt, the text a user pastes into Feedback
 * Assistant, as a model and its writers.  The model (feedback_model.c) is
 * what the text says, read from a run.json in one place: what kind of run
 * it is, the case the title names and the one the results lead with, each
 * case and configuration with its numbers, the suite's projection, the
 * newer fields of run.json it pastes or only names, the kit and the
 * archive, the checker's health before the run.  The writers
 * (feedback_text.c) word it and decide nothing:
 * feedback.txt, and the services' fields as a table.  A new result (the
 * checker's health, the remedies) is a member here filled in the model,
 * and a section in the text. */
#ifndef EXECLAG_FEEDBACK_H
#define EXECLAG_FEEDBACK_H

#include "advice_model.h"
#include "healthfile.h"
#include "remedies.h"
#include "runjson.h"

#include <jansson.h>
#include <stdio.h>

/* What the run can say to Apple. */
enum feedback_platform {
	FEEDBACK_MAC,   /* a Mac's run */
	FEEDBACK_LINUX, /* the Linux control */
	FEEDBACK_GATE,  /* under the calibration gate: a test of the kit */
	FEEDBACK_OTHER  /* any other system */
};

struct feedback_penalty {
	double median, low, high; /* ms; NAN where unknown */
};

/* A case's or a configuration's numbers; NAN where unknown. */
struct feedback_numbers {
	double first_ms, repeat_ms; /* medians */
	double ratio;               /* of the medians */
	struct feedback_penalty penalty;
};

struct feedback_config {
	long threads, pad; /* pad: bytes of padding, 0 where none */
	const char *class_name, *verdict;
	struct feedback_numbers n;
};

struct feedback_case {
	const char *name, *verdict, *reason, *serialisation, *serialisation_reason;
	const char *meaning; /* what its artifacts are (the kinds table) */
	long threads;        /* the headline's */
	const char *class_name;
	struct feedback_numbers n;
	struct feedback_config *config;
	size_t n_configs;
};

/* A field of run.json that the text does not word, in the run's order. */
struct feedback_field {
	const char *kase;     /* its case's name; NULL: a field of the run */
	const char *key;
	const json_t *value;  /* as recorded */
	/* what the assessment services did during a case (their CPU time, the
	 * log's assessment events): pasted as recorded where there is room;
	 * every other field only named, so that the paste stays short */
	int paste;
};

struct feedback {
	enum feedback_platform platform;
	const char *run_id;
	char os[256];                  /* "macOS 14.4.1 (23E224)" */
	const json_t *conditions;      /* read through feedback_condition */
	struct feedback_case *kase;
	size_t n_cases;
	const struct feedback_case *worst;    /* the largest slowdown: the title's; or NULL */
	const struct feedback_case *headline; /* what the results lead with */
	struct advice_projection projection;  /* of the suite case */
	struct feedback_field *field;
	size_t n_fields;
	struct remedies remedies;      /* make remedies' table; n_rows 0: none */
	/* the kit: its version; its commit (NULL: a copy, not a checkout),
	 * where that comes from (a git remote without credentials, or "a
	 * local clone"), its home page */
	const char *version, *commit, *from, *home;
	/* the archive feedback.txt tells to attach, its files (a comma list),
	 * and the bytes of log excerpts it keeps of the run's (-1: not told) */
	const char *bundle, *contents;
	long logs_kept, logs_total;
	/* the checker's health before any launch (issue 43): its state (the
	 * conditions' checker.state, NULL: the run read none; the figures are
	 * the conditions' checker.*), and from the run's record the
	 * assessment's own line and the log lines it quoted */
	const char *checker_state;
	const char *assess_line;
	char *const *quotes;
	size_t n_quotes;
};

/* What scripts/feedback tells beside the run (each may be NULL). */
struct feedback_kit {
	const char *commit, *from, *home, *bundle, *contents;
	long logs_kept, logs_total;
	const struct health_record *health; /* the run's health.tsv, read */
};

/* The model of the run R (runjson_load), with what the kit told. */
void feedback_of_run(struct feedback *fb, const struct runjson *r, const struct feedback_kit *kit);
void feedback_free(struct feedback *fb);

/* conditions[KEY], or NULL where the run has none. */
const char *feedback_condition(const struct feedback *fb, const char *key);

/* feedback.txt: banner, title, area and type, description, steps to
 * reproduce, expected and actual results, workaround, attachments and
 * sources. */
void feedback_text(FILE *f, const struct feedback *fb);

/* The cases' "services" fields as "case<TAB>field<TAB>value" lines under a
 * header, or nothing. */
void feedback_services_table(FILE *f, const struct feedback *fb);

#endif
