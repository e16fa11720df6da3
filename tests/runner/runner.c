// SPDX-License-Identifier: GPL-2.0
/*
 * The test runner: runs every registered C test, then every script of --scripts DIR, each in its
 * own process with a time limit, shows the output of failures, names the slowest tests (wall
 * time until reaped: with -j, a test that ends while an older one runs counts until that one
 * ends) and closes with "N passed, N failed, N skipped". With -j N up to N tests run at once;
 * results still print in order, each test's output with its own line. Two tests of one name
 * are refused.
 *
 *   nb-test [-v] [-j N] [-f SUBSTRING]... [--scripts DIR] [--list]
 *
 * Scripts exit 0 to pass and 77 to skip; a skip's reason is the line of its output that starts
 * with "SKIPPED".
 */
#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "test.h"

#define TEST_TIMEOUT_S 600
#define EXIT_SKIP 77
#define SLOWEST_SHOWN 8

struct test {
	char *name;
	nb_test_fn fn;
	const void *arg;
	char *script;
};

static struct test *tests;
static size_t test_cnt, test_cap;

void nb_test_register(const char *name, nb_test_fn fn, const void *arg)
{
	if (test_cnt == test_cap) {
		test_cap = test_cap ? test_cap * 2 : 256;
		tests = realloc(tests, test_cap * sizeof(*tests));
		if (!tests)
			abort();
	}
	tests[test_cnt++] = (struct test){ .name = strdup(name), .fn = fn, .arg = arg };
}

void nb_test_fail(const char *file, int line, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s:%d: ", file, line);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	fflush(NULL);
	_exit(1);
}

void nb_test_skip(const char *fmt, ...)
{
	va_list ap;

	printf("SKIPPED: ");
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
	fflush(NULL);
	_exit(EXIT_SKIP);
}

#define REPORT_MARK "REPORT: "

void nb_test_report(const char *fmt, ...)
{
	va_list ap;

	printf(REPORT_MARK);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
}

/* A passing test's report lines, indented under its "ok" line. */
static void print_reports(const char *out)
{
	for (const char *p = out; (p = strstr(p, REPORT_MARK));) {
		size_t n;

		if (p != out && p[-1] != '\n') {
			p++;
			continue;
		}
		p += strlen(REPORT_MARK);
		n = strcspn(p, "\n");
		printf("         %.*s\n", (int)n, p);
		p += n;
	}
}

const char *nb_test_build_dir(void)
{
	const char *dir = getenv("NB_BUILD");

	return dir && *dir ? dir : "build";
}

const char *nb_test_build_path(char *buf, size_t size, const char *rel)
{
	snprintf(buf, size, "%s/%s", nb_test_build_dir(), rel);
	return buf;
}

static int cmp_name(const void *a, const void *b)
{
	const struct test *ta = a, *tb = b;

	return strcmp(ta->name, tb->name);
}

static void add_scripts(const char *dir)
{
	struct dirent *de;
	DIR *d = opendir(dir);

	if (!d) {
		fprintf(stderr, "nb-test: cannot open %s: %s\n", dir, strerror(errno));
		exit(2);
	}
	while ((de = readdir(d))) {
		size_t n = strlen(de->d_name);
		char path[4096];

		if (n < 4 || strcmp(de->d_name + n - 3, ".sh"))
			continue;
		/* helpers the tests source (lib.sh, compare_lib.sh) are not tests */
		if (n >= 6 && !strcmp(de->d_name + n - 6, "lib.sh"))
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, de->d_name);
		nb_test_register(de->d_name, NULL, NULL);
		tests[test_cnt - 1].script = strdup(path);
	}
	closedir(d);
}

static bool selected(const struct test *t, char **filters, int nfilters)
{
	if (!nfilters)
		return true;
	for (int i = 0; i < nfilters; i++)
		if (strstr(t->name, filters[i]))
			return true;
	return false;
}

/* Print the first line of out that starts with "SKIPPED", without the word. */
static void print_skip_reason(const char *out)
{
	const char *p = strstr(out, "SKIPPED");
	size_t n;

	if (!p) {
		printf("(no reason given)\n");
		return;
	}
	p += strlen("SKIPPED");
	while (*p == ':' || *p == ' ')
		p++;
	n = strcspn(p, "\n");
	printf("%.*s\n", (int)n, p);
}

/* A test under way: its process, the memory file that collects its output, when it began. */
struct running {
	const struct test *t;
	pid_t pid;
	int fd;
	struct timespec start;
};

/* The slowest tests so far, slowest first: where make check's time goes. */
static struct slow_test {
	const char *name;
	double seconds;
} slowest[SLOWEST_SHOWN];

static double seconds_since(const struct timespec *start)
{
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	return (double)(now.tv_sec - start->tv_sec) + (now.tv_nsec - start->tv_nsec) / 1e9;
}

static void note_time(const char *name, double seconds)
{
	int i = SLOWEST_SHOWN;

	while (i > 0 && slowest[i - 1].seconds < seconds) {
		if (i < SLOWEST_SHOWN)
			slowest[i] = slowest[i - 1];
		i--;
	}
	if (i < SLOWEST_SHOWN)
		slowest[i] = (struct slow_test){ .name = name, .seconds = seconds };
}

/* Only for a whole run: one test's time is on its own line already when it fails. */
static void print_slowest(size_t ran)
{
	if (ran < 2 * SLOWEST_SHOWN)
		return;
	printf("slowest:");
	for (int i = 0; i < SLOWEST_SHOWN && slowest[i].name; i++)
		printf(" %s %.1fs", slowest[i].name, slowest[i].seconds);
	putchar('\n');
}

static struct running start_one(const struct test *t)
{
	struct running r = { .t = t, .fd = memfd_create("nb-test-out", 0) };

	if (r.fd < 0) {
		perror("memfd_create");
		exit(2);
	}
	fflush(NULL);
	clock_gettime(CLOCK_MONOTONIC, &r.start);
	r.pid = fork();
	if (r.pid < 0) {
		perror("fork");
		exit(2);
	}
	if (r.pid == 0) {
		dup2(r.fd, STDOUT_FILENO);
		dup2(r.fd, STDERR_FILENO);
		alarm(TEST_TIMEOUT_S);
		if (t->script) {
			execlp("bash", "bash", t->script, (char *)NULL);
			perror("bash");
			_exit(1);
		}
		t->fn(t->arg);
		fflush(NULL);
		_exit(0);
	}
	return r;
}

/* Wait for a started test, print its result: 0 passed, EXIT_SKIP skipped, 1 failed. */
static int finish_one(struct running *r, bool verbose)
{
	const struct test *t = r->t;
	char *out = NULL;
	int status = 0;
	off_t len;

	while (waitpid(r->pid, &status, 0) < 0 && errno == EINTR)
		;
	note_time(t->name, seconds_since(&r->start));
	len = lseek(r->fd, 0, SEEK_END);
	out = calloc(1, len + 1);
	if (out && len > 0)
		(void)!pread(r->fd, out, len, 0);
	close(r->fd);

	if (WIFEXITED(status) && WEXITSTATUS(status) == 0) {
		printf("ok       %s\n", t->name);
		if (verbose && out && *out)
			fputs(out, stdout);
		else if (out)
			print_reports(out);
	} else if (WIFEXITED(status) && WEXITSTATUS(status) == EXIT_SKIP) {
		printf("SKIPPED  %s: ", t->name);
		print_skip_reason(out ? out : "");
		status = EXIT_SKIP;
	} else {
		printf("FAIL     %s", t->name);
		if (WIFSIGNALED(status))
			printf(" (signal %d%s)", WTERMSIG(status),
			       WTERMSIG(status) == SIGALRM ? ": timed out" : "");
		printf("\n%s", out ? out : "");
		if (out && len > 0 && out[len - 1] != '\n')
			putchar('\n');
		status = 1;
	}
	free(out);
	return status;
}

/* A name registered twice would run twice and hide one test's result behind the other's. */
static bool unique_names(size_t from, size_t to)
{
	bool ok = true;

	for (size_t i = from + 1; i < to; i++) {
		if (!strcmp(tests[i - 1].name, tests[i].name)) {
			fprintf(stderr, "nb-test: two tests are named %s\n", tests[i].name);
			ok = false;
		}
	}
	return ok;
}

static void usage(void)
{
	fprintf(stderr, "usage: nb-test [-v] [-j N] [-f SUBSTRING]... [--scripts DIR] [--list]\n");
}

int main(int argc, char **argv)
{
	size_t passed = 0, failed = 0, skipped = 0, head = 0, tail = 0;
	char **filters = calloc(argc, sizeof(*filters));
	struct running *window;
	size_t first_script;
	bool verbose = false, list = false;
	int nfilters = 0;
	long jobs = 1;

	/* C tests first, in name order; scripts after them, in name order. */
	if (test_cnt)
		qsort(tests, test_cnt, sizeof(*tests), cmp_name);
	first_script = test_cnt;
	for (int i = 1; i < argc; i++) {
		char *end;

		if (!strcmp(argv[i], "-v")) {
			verbose = true;
		} else if (!strcmp(argv[i], "--list")) {
			list = true;
		} else if (!strcmp(argv[i], "-f") && i + 1 < argc) {
			filters[nfilters++] = argv[++i];
		} else if (!strcmp(argv[i], "-j") && i + 1 < argc) {
			jobs = strtol(argv[++i], &end, 10);
			if (*end || jobs < 1 || jobs > 64) {
				fprintf(stderr, "nb-test: -j %s: expected 1 to 64\n", argv[i]);
				free(filters);
				return 2;
			}
		} else if (!strcmp(argv[i], "--scripts") && i + 1 < argc) {
			add_scripts(argv[++i]);
		} else {
			usage();
			free(filters);
			return 2;
		}
	}
	if (test_cnt > first_script)
		qsort(tests + first_script, test_cnt - first_script, sizeof(*tests), cmp_name);
	if (!unique_names(0, first_script) || !unique_names(first_script, test_cnt)) {
		free(filters);
		return 2;
	}
	setvbuf(stdout, NULL, _IOLBF, 0);

	/* A window of up to jobs running tests, finished oldest first so results stay in order. */
	window = calloc(jobs, sizeof(*window));
	if (!window)
		abort();
	for (size_t i = 0; i <= test_cnt; i++) {
		if (i < test_cnt) {
			if (!selected(&tests[i], filters, nfilters))
				continue;
			if (list) {
				printf("%s\n", tests[i].name);
				continue;
			}
		}
		while (tail > head && (i == test_cnt || tail - head == (size_t)jobs)) {
			switch (finish_one(&window[head++ % jobs], verbose)) {
			case 0:
				passed++;
				break;
			case EXIT_SKIP:
				skipped++;
				break;
			default:
				failed++;
			}
		}
		if (i < test_cnt)
			window[tail++ % jobs] = start_one(&tests[i]);
	}
	free(window);
	free(filters);
	if (list)
		return 0;
	print_slowest(passed + failed + skipped);
	printf("%zu passed, %zu failed, %zu skipped\n", passed, failed, skipped);
	return failed ? 1 : 0;
}
