/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The test runner's interface. A test is a function registered at start-up; each runs in its own
 * process so that a crash fails one test, not the run. Table-driven suites register one test per
 * case with nb_test_register so that every case is counted.
 */
#ifndef NB_TEST_H
#define NB_TEST_H

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef void (*nb_test_fn)(const void *arg);

void nb_test_register(const char *name, nb_test_fn fn, const void *arg);
/* Ends the current test as failed (exit status 1) or skipped with a reason (77). */
void nb_test_fail(const char *file, int line, const char *fmt, ...)
	__attribute__((noreturn, format(printf, 3, 4)));
void nb_test_skip(const char *fmt, ...) __attribute__((noreturn, format(printf, 1, 2)));
/*
 * One line of results shown under the test's "ok" line even without -v (a corpus summary, a
 * table's totals): the rest of a passing test's output is shown only with -v.
 */
void nb_test_report(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Directory of the build (objects in $NB_BUILD/tests/bpf, the netbpf binary in $NETBPF). */
const char *nb_test_build_dir(void);
/* Path of a file under the build directory, in a static buffer per call site. */
const char *nb_test_build_path(char *buf, size_t size, const char *rel);

#define NB_TEST(name)                                                                       \
	static void test_##name(const void *arg);                                           \
	static void __attribute__((constructor)) register_##name(void)                      \
	{                                                                                   \
		nb_test_register(#name, test_##name, NULL);                                 \
	}                                                                                   \
	static void test_##name(const void *arg __attribute__((unused)))

#define NB_FAIL(...) nb_test_fail(__FILE__, __LINE__, __VA_ARGS__)

#define NB_ASSERT(cond)                                                                     \
	do {                                                                                \
		if (!(cond))                                                                \
			NB_FAIL("assertion failed: %s", #cond);                             \
	} while (0)

#define NB_ASSERT_EQ(a, b)                                                                  \
	do {                                                                                \
		uint64_t a_ = (uint64_t)(a), b_ = (uint64_t)(b);                            \
		if (a_ != b_)                                                               \
			NB_FAIL("%s == %s: 0x%" PRIx64 " != 0x%" PRIx64, #a, #b, a_, b_);   \
	} while (0)

#define NB_ASSERT_MEM_EQ(a, b, len)                                                         \
	do {                                                                                \
		if (memcmp((a), (b), (len)) != 0)                                           \
			NB_FAIL("%s and %s differ in their first %zu bytes", #a, #b,        \
				(size_t)(len));                                             \
	} while (0)

#define NB_ASSERT_STR_CONTAINS(haystack, needle)                                            \
	do {                                                                                \
		const char *h_ = (haystack), *n_ = (needle);                                \
		if (!h_ || !strstr(h_, n_))                                                 \
			NB_FAIL("\"%s\" does not contain \"%s\"", h_ ? h_ : "(null)", n_);  \
	} while (0)

#endif /* NB_TEST_H */
