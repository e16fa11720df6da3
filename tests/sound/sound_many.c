// SPDX-License-Identifier: GPL-2.0
/*
 * The soundness fuzzer's long run (make sound): --programs generated programs, each from its
 * own seed, verified and, when accepted, run unchecked on the interpreter and the JIT exactly as
 * tests/fuzz/fuzz_soundness.c runs them (tests/runner/sound_gen.c, sound_run.c), spread over
 * --jobs processes. libFuzzer's coverage guidance adds little to a generator that already
 * writes what the verifier mostly accepts, and costs half the speed; this driver is what counts
 * the ten million accepted programs issue 20 asks for.
 *
 * It is meant for the ASan build (make sound builds build/asan/nb-sound), where an access
 * outside the memory a program was given ends its process with AddressSanitizer's report. The
 * parent counts such an end as an escape, prints the seed that reproduces it and goes on with
 * a new process from the next seed; engines that disagree are counted as mismatches. Either is
 * a verifier or JIT bug: the exit status is 1 when any was found. The accepted programs whose
 * engines were not compared (their results may rest on bytes they do not own: sound_run.h) are
 * counted by why on the summary's second line.
 *
 *   nb-sound [--programs N] [--seed S] [--jobs J] [--dump]
 *
 * Program i is generated from seed S + i, so a finding is reproduced by
 * `nb-sound --seed S+i --programs 1`. --abort-at I makes the process running program I abort
 * instead, to show that an escape is caught and counted (tests/cli/sound.sh). --dump lists every
 * program with its verdict; a mismatch's program is always listed.
 */
#include <errno.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#ifdef __SANITIZE_ADDRESS__
#include <sanitizer/asan_interface.h>
#endif

#include "bpf/disasm.h"
#include "sound_gen.h"
#include "sound_run.h"

#ifdef __SANITIZE_ADDRESS__
/*
 * AddressSanitizer's settings for this run (ASAN_OPTIONS still override them). Its quarantine
 * keeps freed chunks poisoned until 256 MB more were freed; the verifier copies and frees
 * states at every branch, three loads a program, so a quarantine that size kept cycling
 * through cold memory, and the allocator gave pages back to the kernel and faulted them in
 * again: the two were a third of the run's time. A program can only touch memory freed during
 * its own run (a packet buffer a helper replaced; map elements wait for the epoch), a few KB
 * before its use, so 8 MB still holds every chunk that could be touched after it was freed.
 */
const char *__asan_default_options(void)
{
	return "quarantine_size_mb=8:allocator_release_to_os_interval_ms=-1";
}
#endif

#define MAX_INSNS 1024
#define MAX_JOBS 64
#define INPUT_LEN 256

#define SR_COMPARE_KINDS (SR_NO_JIT + 1)

/* What each process has done, in memory the parent reads. */
struct job_tally {
	u64 next;		/* the index it works on */
	u64 done, accepted, probing, probing_accepted, mismatches;
	u64 compare[SR_COMPARE_KINDS];	/* the accepted ones that ran, by enum sr_compare */
};

struct run_args {
	u64 programs, seed, abort_at;
	u32 jobs;
	bool dump;
};

/* What --dump says of an accepted program, by enum sr_compare. */
static const char *const compare_words[SR_COMPARE_KINDS] = {
	[SR_COMPARED] = "accepted, compared with the JIT",
	[SR_NOT_ASKED] = "accepted, shows addresses or bytes past its memory, not compared",
	[SR_UNINIT_STACK] = "accepted, reads never-written stack, not compared:",
	[SR_FILLS_DIFFER] = "accepted, varies with bytes a helper left, not compared",
	[SR_NO_JIT] = "accepted, not JIT-compiled",
};

static void dump_prog(const struct bpf_insn *insns, u32 cnt)
{
	char line[256];

	for (u32 i = 0; i < cnt;) {
		int n = nb_disasm_insn(&insns[i], cnt - i, line, sizeof(line));

		fprintf(stderr, "%4u: %s\n", i, line);
		i += n;
	}
}

static u64 splitmix64(u64 *state)
{
	u64 z = (*state += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

/*
 * The fuzz target's input for one seed: the program type, the environment's length and the
 * bytes both are read from (the generator goes on from a generator seeded by them).
 */
static void seed_input(u64 seed, u8 *data)
{
	u64 state = seed;

	for (size_t i = 0; i < INPUT_LEN; i += 8) {
		u64 v = splitmix64(&state);

		memcpy(data + i, &v, 8);
	}
}

static void run_one(u64 seed, bool abort_here, bool dump, struct job_tally *t)
{
	static struct bpf_insn insns[MAX_INSNS];
	struct sg_opts o = { .max_insns = MAX_INSNS };
	u8 data[INPUT_LEN];
	struct sr_result res;
	struct sr_input in;
	struct sg_prog p;

	seed_input(seed, data);
	data[1] %= 64;	/* at most 126 bytes of environment: the rest are choices */
	sr_input_split(data, INPUT_LEN, &in);
	o.prog_type = in.type;
	o.maps = sr_maps(&o.map_cnt);
	p = sg_gen(in.choices, in.choices_len, &o, insns);
	t->done++;
	if (abort_here)
		abort();
	if (!p.cnt)
		return;
	sr_run(o.prog_type, insns, p.cnt, &(struct sr_opts){ .compare = !p.leaks_addresses },
	       in.env, in.env_len, &res);
	t->probing += p.probes > 0;
	if (dump || res.verdict == SR_MISMATCH) {
		bool why = res.verdict == SR_REJECTED ||
			   (res.verdict == SR_RAN && res.compare == SR_UNINIT_STACK);

		dump_prog(insns, p.cnt);
		fprintf(stderr, "seed %llu, type %d, %u probes: %s %s\n", (unsigned long long)seed,
			in.type, p.probes, res.verdict == SR_REJECTED ? "rejected:" :
			compare_words[res.compare], why ? res.why : "");
	}
	if (res.verdict == SR_REJECTED)
		return;
	t->accepted++;
	t->compare[res.compare]++;
	t->probing_accepted += p.probes > 0;
	if (res.verdict == SR_MISMATCH) {
		t->mismatches++;
		fprintf(stderr, "nb-sound: mismatch at seed %llu (nb-sound --seed %llu --programs 1): "
			"%s\n", (unsigned long long)seed, (unsigned long long)seed, res.why);
	}
}

/* A process's share: every jobs-th program from first, until programs. */
static void job_main(const struct run_args *a, u64 first, struct job_tally *t)
{
	for (u64 i = first; i < a->programs; i += a->jobs) {
		t->next = i;
		run_one(a->seed + i, i == a->abort_at, a->dump, t);
	}
	t->next = a->programs;
	sr_cleanup();
	_exit(0);
}

static pid_t job_start(const struct run_args *a, u64 first, struct job_tally *t)
{
	pid_t pid;

	fflush(NULL);
	pid = fork();
	if (pid == 0)
		job_main(a, first, t);
	return pid;
}

static void tally_sum(const struct job_tally *tally, u32 jobs, struct job_tally *sum)
{
	memset(sum, 0, sizeof(*sum));
	for (u32 j = 0; j < jobs; j++) {
		sum->done += tally[j].done;
		sum->accepted += tally[j].accepted;
		sum->probing += tally[j].probing;
		sum->probing_accepted += tally[j].probing_accepted;
		sum->mismatches += tally[j].mismatches;
		for (u32 k = 0; k < SR_COMPARE_KINDS; k++)
			sum->compare[k] += tally[j].compare[k];
	}
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

static int usage(const char *word)
{
	fprintf(stderr, "nb-sound: %s\n"
		"usage: nb-sound [--programs N] [--seed S] [--jobs J] [--abort-at I] [--dump]\n", word);
	return 2;
}

static bool parse_u64(const char *s, u64 *v)
{
	char *end;

	errno = 0;
	*v = strtoull(s, &end, 0);
	return s[0] && s[0] != '-' && !*end && !errno;
}

int main(int argc, char **argv)
{
	struct run_args a = { .programs = 100000, .seed = 1, .abort_at = UINT64_MAX, .jobs = 1 };
	pid_t pids[MAX_JOBS];
	struct job_tally *tally, sum;
	u64 escapes = 0, jobs;
	double start = now(), last = start;
	u32 running;

	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--dump")) {
			a.dump = true;
			continue;
		}
		u64 *dst = !strcmp(argv[i], "--programs") ? &a.programs :
			   !strcmp(argv[i], "--seed") ? &a.seed :
			   !strcmp(argv[i], "--abort-at") ? &a.abort_at :
			   !strcmp(argv[i], "--jobs") ? &jobs : NULL;

		if (!dst)
			return usage(argv[i]);
		if (i + 1 == argc || !parse_u64(argv[i + 1], dst))
			return usage(i + 1 == argc ? "an option needs a number" : argv[i + 1]);
		if (dst == &jobs) {
			if (!jobs || jobs > MAX_JOBS)
				return usage("--jobs takes 1 to 64");
			a.jobs = (u32)jobs;
		}
		i++;
	}
	tally = mmap(NULL, sizeof(*tally) * a.jobs, PROT_READ | PROT_WRITE,
		     MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (tally == MAP_FAILED) {
		perror("nb-sound: mmap");
		return 1;
	}
	memset(tally, 0, sizeof(*tally) * a.jobs);
	for (u32 j = 0; j < a.jobs; j++)
		pids[j] = job_start(&a, j, &tally[j]);
	running = a.jobs;
	while (running) {
		int status;
		pid_t pid = waitpid(-1, &status, WNOHANG);
		u32 j;

		if (pid < 0) {
			perror("nb-sound: waitpid");
			return 1;
		}
		if (now() - last >= 10) {
			last = now();
			tally_sum(tally, a.jobs, &sum);
			fprintf(stderr, "nb-sound: %llu of %llu programs, %llu accepted, %.0f/s\n",
				(unsigned long long)sum.done, (unsigned long long)a.programs,
				(unsigned long long)sum.accepted, sum.done / (last - start));
		}
		if (!pid) {
			usleep(50 * 1000);
			continue;
		}
		for (j = 0; j < a.jobs && pids[j] != pid; j++)
			;
		if (j == a.jobs)
			continue;
		if (WIFEXITED(status) && !WEXITSTATUS(status)) {
			running--;
			continue;
		}
		/* the program it was running escaped (or crashed the engines): go on after it */
		escapes++;
		fprintf(stderr, "nb-sound: escape at seed %llu (%s %d; nb-sound --seed %llu "
			"--programs 1 reproduces it)\n", (unsigned long long)(a.seed + tally[j].next),
			WIFSIGNALED(status) ? "signal" : "exit status",
			WIFSIGNALED(status) ? WTERMSIG(status) : WEXITSTATUS(status),
			(unsigned long long)(a.seed + tally[j].next));
		tally[j].accepted++;	/* it was counted as done; only an accepted program runs */
		pids[j] = job_start(&a, tally[j].next + a.jobs, &tally[j]);
	}
	tally_sum(tally, a.jobs, &sum);
	printf("nb-sound: %llu programs (seeds %llu..%llu), %llu accepted (%llu%%), %llu with a "
	       "probe of which %llu accepted, %llu escapes, %llu mismatches, %.0f s on %u jobs\n",
	       (unsigned long long)sum.done, (unsigned long long)a.seed,
	       (unsigned long long)(a.seed + a.programs - 1), (unsigned long long)sum.accepted,
	       (unsigned long long)(sum.done ? sum.accepted * 100 / sum.done : 0),
	       (unsigned long long)sum.probing, (unsigned long long)sum.probing_accepted,
	       (unsigned long long)escapes, (unsigned long long)sum.mismatches, now() - start,
	       a.jobs);
	/* the accepted programs whose engines were not compared, by why not */
	printf("nb-sound: %llu compared with the JIT, %llu read never-written stack, not compared, "
	       "%llu show addresses or bytes past their memory, not compared, %llu vary with bytes "
	       "a helper left, not compared, %llu not JIT-compiled\n",
	       (unsigned long long)sum.compare[SR_COMPARED],
	       (unsigned long long)sum.compare[SR_UNINIT_STACK],
	       (unsigned long long)sum.compare[SR_NOT_ASKED],
	       (unsigned long long)sum.compare[SR_FILLS_DIFFER],
	       (unsigned long long)sum.compare[SR_NO_JIT]);
	munmap(tally, sizeof(*tally) * a.jobs);
	return escapes || sum.mismatches ? 1 : 0;
}
