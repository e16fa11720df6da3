// SPDX-License-Identifier: GPL-2.0
/*
 * Program lifetime, the twin of the kernel's bpf_prog_load: copy the instructions, check their
 * structure, resolve map references, prove the program safe (or mark it for checked runs only),
 * and hand it to the JIT.
 */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <bpf/libbpf.h>
#include <netbpf/btf.h>

#include "bpf/btf_object.h"
#include "bpf/prog.h"
#include "bpf/prog_type.h"
#include "bpf/map.h"
#include "bpf/jit.h"
#include "bpf/epoch.h"
#include "bpf/percpu_tls.h"
#include "bpf/vmlinux_btf.h"
#include "common/opts.h"

/* Program ids: a table guarded by a mutex, as map ids are (prog_array updates name programs). */
static pthread_mutex_t prog_ids_lock = PTHREAD_MUTEX_INITIALIZER;
static struct nb_prog **prog_by_id;
static u32 prog_id_cap;
static u32 next_prog_id = 1;

static int prog_id_alloc(struct nb_prog *prog)
{
	pthread_mutex_lock(&prog_ids_lock);
	if (next_prog_id >= prog_id_cap) {
		u32 cap = prog_id_cap ? prog_id_cap * 2 : 64;
		struct nb_prog **table = realloc(prog_by_id, cap * sizeof(*table));

		if (!table) {
			pthread_mutex_unlock(&prog_ids_lock);
			return -ENOMEM;
		}
		memset(table + prog_id_cap, 0, (cap - prog_id_cap) * sizeof(*table));
		prog_by_id = table;
		prog_id_cap = cap;
	}
	prog->id = next_prog_id++;
	prog_by_id[prog->id] = prog;
	pthread_mutex_unlock(&prog_ids_lock);
	return 0;
}

/* A reference unless the last one is going (bpf_prog_inc_not_zero). */
static struct nb_prog *prog_get_not_zero(struct nb_prog *prog)
{
	int ref = __atomic_load_n(&prog->refcnt, __ATOMIC_RELAXED);

	do {
		if (!ref)
			return NULL;
	} while (!__atomic_compare_exchange_n(&prog->refcnt, &ref, ref + 1, false,
					      __ATOMIC_RELAXED, __ATOMIC_RELAXED));
	return prog;
}

struct nb_prog *nb_prog_get_by_id(__u32 id)
{
	struct nb_prog *prog = NULL;

	pthread_mutex_lock(&prog_ids_lock);
	if (id < prog_id_cap && prog_by_id[id])
		prog = prog_get_not_zero(prog_by_id[id]);
	pthread_mutex_unlock(&prog_ids_lock);
	return prog;
}

int nb_prog_get_next_id(__u32 start_id, __u32 *next_id)
{
	int err = -ENOENT;

	pthread_mutex_lock(&prog_ids_lock);
	for (u32 id = start_id + 1; id < prog_id_cap && id < next_prog_id; id++) {
		if (prog_by_id[id]) {
			*next_id = id;
			err = 0;
			break;
		}
	}
	pthread_mutex_unlock(&prog_ids_lock);
	return err;
}

/* sysctl kernel.bpf_stats_enabled: every run is counted and timed while it is on. */
bool nb_prog_stats_on;

void nb_bpf_stats_enable(bool on)
{
	__atomic_store_n(&nb_prog_stats_on, on, __ATOMIC_RELAXED);
}

bool nb_bpf_stats_enabled(void)
{
	return __atomic_load_n(&nb_prog_stats_on, __ATOMIC_RELAXED);
}

/* The kernel's load_time clock (ktime_get_boottime_ns), which bpftool turns into a date. */
static u64 boottime_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_BOOTTIME, &ts);
	return (u64)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

/* The real clock even in the deterministic mode: run time is about this machine. */
static u64 stats_clock_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (u64)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

u64 nb_prog_run_stats(const struct nb_prog *prog, const void *ctx)
{
	struct nb_prog_stats *st = &prog->stats[nb_this_cpu() % prog->nr_stats];
	u64 start = stats_clock_ns(), ret;

	ret = prog->jited ? prog->jited((u64)(uintptr_t)ctx, 0) :
			    nb_interp_run(prog, (u64)(uintptr_t)ctx, 0);
	/* this worker is the only writer of its slot: a load and a store, never torn */
	__atomic_store_n(&st->run_time_ns, st->run_time_ns + stats_clock_ns() - start,
			 __ATOMIC_RELAXED);
	__atomic_store_n(&st->run_cnt, st->run_cnt + 1, __ATOMIC_RELAXED);
	return ret;
}

/*
 * What the kernel charges for a program: the pages of its struct bpf_prog, the struct and the
 * instructions after it (bpf_prog_size: offsetof(struct bpf_prog, insnsi[len]), never less than
 * the struct), grown as the verifier patches them and never shrunk (bpf_prog_realloc). The
 * struct's size is the running kernel's, from its BTF; without that, Linux 6.18's on x86-64.
 */
#define NB_KERNEL_BPF_PROG_SIZE 96
#define NB_KERNEL_PAGE_SIZE 4096

static u64 prog_memlock(const struct nb_prog *prog)
{
	u64 insns = prog->len > prog->orig_len ? prog->len : prog->orig_len;
	u64 bytes = nb_vmlinux_struct_size("bpf_prog", NB_KERNEL_BPF_PROG_SIZE) +
		    insns * sizeof(struct bpf_insn);

	return (bytes + NB_KERNEL_PAGE_SIZE - 1) / NB_KERNEL_PAGE_SIZE * NB_KERNEL_PAGE_SIZE;
}

int nb_prog_get_info(const struct nb_prog *prog, struct nb_prog_info *info)
{
	memset(info, 0, sizeof(*info));
	info->id = prog->id;
	info->type = prog->type;
	memcpy(info->name, prog->name, sizeof(info->name));
	nb_prog_tag(prog, info->tag);
	info->gpl_compatible = prog->gpl_compatible;
	info->xlated_prog_len = prog->len * sizeof(struct bpf_insn);
	info->jited_prog_len = prog->jited ? (u32)prog->jit_size : 0;
	info->verified_insns = prog->verified_insns;
	info->nr_map_ids = prog->used_map_cnt;
	for (u32 i = 0; i < prog->used_map_cnt && i < NB_PROG_INFO_MAP_IDS; i++)
		info->map_ids[i] = nb_map_id(prog->used_maps[i]);
	for (unsigned int cpu = 0; prog->stats && cpu < prog->nr_stats; cpu++) {
		info->run_cnt += __atomic_load_n(&prog->stats[cpu].run_cnt, __ATOMIC_RELAXED);
		info->run_time_ns += __atomic_load_n(&prog->stats[cpu].run_time_ns,
						     __ATOMIC_RELAXED);
	}
	info->load_time = prog->load_time;
	info->created_by_uid = prog->uid;
	info->btf_id = prog->btf ? nb_btf_id(prog->btf) : 0;
	info->memlock = prog_memlock(prog);
	return 0;
}

/* Licenses the kernel treats as GPL-compatible (license_is_gpl_compatible). */
static bool license_is_gpl_compatible(const char *license)
{
	static const char *const gpl[] = {
		"GPL", "GPL v2", "GPL and additional rights", "Dual BSD/GPL", "Dual MIT/GPL",
		"Dual MPL/GPL",
	};

	for (size_t i = 0; license && i < ARRAY_SIZE(gpl); i++)
		if (!strcmp(license, gpl[i]))
			return true;
	return false;
}

static int add_used_map(struct nb_prog *prog, struct nb_map *map)
{
	struct nb_map **maps;

	for (u32 i = 0; i < prog->used_map_cnt; i++)
		if (prog->used_maps[i] == map)
			return 0;
	maps = realloc(prog->used_maps, (prog->used_map_cnt + 1) * sizeof(*maps));
	if (!maps)
		return -ENOMEM;
	prog->used_maps = maps;
	prog->used_maps[prog->used_map_cnt++] = nb_map_get(map);
	return 0;
}

/*
 * The twin of resolve_pseudo_ldimm64: map ids and map indexes in ldimm64 become map pointers
 * (BPF_PSEUDO_MAP_FD) or value addresses (BPF_PSEUDO_MAP_VALUE), and the program takes a
 * reference on every map it names.
 */
static int resolve_map_refs(struct nb_prog *prog, const struct nb_prog_load_opts *opts,
			    struct nb_log *log)
{
	for (u32 i = 0; i < prog->len; i++) {
		struct bpf_insn *insn = &prog->insns[i];
		bool by_idx, value;
		struct nb_map *map;
		u64 addr;
		int err;

		if (!insn_is_ldimm64(insn))
			continue;
		i++;
		by_idx = insn->src_reg == BPF_PSEUDO_MAP_IDX ||
			 insn->src_reg == BPF_PSEUDO_MAP_IDX_VALUE;
		value = insn->src_reg == BPF_PSEUDO_MAP_VALUE ||
			insn->src_reg == BPF_PSEUDO_MAP_IDX_VALUE;
		if (!by_idx && !value && insn->src_reg != BPF_PSEUDO_MAP_FD)
			continue;
		if (by_idx) {
			if (!opts || (u32)insn->imm >= opts->map_cnt || !opts->maps[insn->imm]) {
				nb_log_printf(log, "insn %u: map index %u out of range\n", i - 1,
					      (u32)insn->imm);
				return -EINVAL;
			}
			map = nb_map_get(opts->maps[insn->imm]);
		} else {
			map = nb_map_get_by_id((u32)insn->imm);
			if (!map) {
				nb_log_printf(log, "insn %u: no map with id %u\n", i - 1,
					      (u32)insn->imm);
				return -EBADF;
			}
		}
		if (value) {
			err = nb_map_direct_value_addr(map, (u32)insn[1].imm, &addr);
			if (err) {
				nb_log_printf(log, "insn %u: no direct value access to map %s at "
					      "offset %u\n", i - 1, map->name, (u32)insn[1].imm);
				nb_map_put(map);
				return err;
			}
		} else {
			addr = (u64)(uintptr_t)map;
		}
		err = add_used_map(prog, map);
		nb_map_put(map);
		if (err)
			return err;
		insn->src_reg = value ? BPF_PSEUDO_MAP_VALUE : BPF_PSEUDO_MAP_FD;
		insn_ldimm64_set(insn, addr);
	}
	return 0;
}

/*
 * The twin of the kernel's bpf_check_tail_call (bpf_prog_select_runtime, once the JIT has run):
 * the program claims every map it uses that holds programs (program arrays, devmaps and
 * cpumaps: map_type_contains_progs, which leaves devmap hashes out), or must match the map's
 * owner as a program stored in the map must (map_prog_owner.c), but for the engine, so that a
 * tail call through an array never enters a program of another type, attach type or frags
 * setting, and a devmap or cpumap never runs a program whose frags setting differs from the
 * redirecting program's.
 */
static int claim_prog_maps(const struct nb_prog *prog, struct nb_log *log)
{
	for (u32 i = 0; i < prog->used_map_cnt; i++) {
		struct nb_map *map = prog->used_maps[i];
		char mine[96], theirs[96];
		const char *mtype;
		u32 owner;

		if (!nb_map_type_contains_progs(map->map_type) ||
		    !nb_map_claim_prog_owner(map, prog, false, &owner))
			continue;
		mtype = libbpf_bpf_map_type_str(map->map_type);
		nb_map_prog_owner_str(nb_map_prog_owner(prog), mine, sizeof(mine));
		nb_map_prog_owner_str(owner, theirs, sizeof(theirs));
		nb_log_printf(log, "program %s (%s) cannot use %s map %s (id %u), whose programs "
			      "are %s: the map holds programs of one kind, the kind of the first "
			      "program stored in it or loaded using it\n",
			      prog->name[0] ? prog->name : "(no name)", mine, mtype ? mtype : "?",
			      map->name, map->id, theirs);
		return -EINVAL;
	}
	return 0;
}

static struct bpf_insn *dup_insns(const struct bpf_insn *insns, u32 cnt)
{
	struct bpf_insn *copy = malloc(cnt * sizeof(*copy));

	if (copy)
		memcpy(copy, insns, cnt * sizeof(*copy));
	return copy;
}

int nb_prog_load(enum bpf_prog_type type, const struct bpf_insn *insns, unsigned int insn_cnt,
		 const struct nb_prog_load_opts *opts, struct nb_prog **progp)
{
	struct nb_log *log = NB_OPTS_GET(opts, log, NULL);
	unsigned int flags;
	struct nb_prog *prog;
	int err;

	*progp = NULL;
	/* the fields up to log are read directly, the BTF ones after it only when present */
	err = NB_OPTS_CHECK(opts, nb_prog_load_opts, log, log);
	if (err)
		return err;
	flags = opts ? opts->flags : 0;
	if (!nb_prog_type_ops(type)) {
		const char *name = libbpf_bpf_prog_type_str(type);

		nb_log_printf(log, "unsupported program type %s (%d): netbpf runs tc (sched_cls, "
			      "sched_act), XDP and socket filter programs only\n",
			      name ? name : "unknown", type);
		return -EINVAL;
	}
	if (insn_cnt > NB_MAX_INSNS) {
		nb_log_printf(log, "program has %u instructions, more than the limit of %u\n",
			      insn_cnt, NB_MAX_INSNS);
		return -E2BIG;
	}
	prog = calloc(1, sizeof(*prog));
	if (!prog)
		return -ENOMEM;
	prog->refcnt = 1;
	prog->type = type;
	prog->ops = nb_prog_type_ops(type);
	prog->load_flags = flags;
	if (opts) {
		prog->expected_attach_type = opts->expected_attach_type;
		prog->gpl_compatible = license_is_gpl_compatible(opts->license);
		if (opts->name)
			snprintf(prog->name, sizeof(prog->name), "%s", opts->name);
	}
	prog->len = insn_cnt;
	prog->insns = dup_insns(insns, insn_cnt ? insn_cnt : 1);
	prog->nr_stats = nb_nr_cpus_if_fixed() ?: NB_MAX_CPUS;
	prog->stats = aligned_alloc(64, prog->nr_stats * sizeof(*prog->stats));
	if (!prog->insns || !prog->stats) {
		err = -ENOMEM;
		goto err;
	}
	memset(prog->stats, 0, prog->nr_stats * sizeof(*prog->stats));
	err = nb_check_insns(prog, log);
	if (!err)
		err = nb_prog_copy_btf_info(prog, opts, log);
	if (!err)
		err = resolve_map_refs(prog, opts, log);
	if (err)
		goto err;
	prog->orig_len = prog->len;
	prog->orig_insns = dup_insns(prog->insns, prog->len);
	if (!prog->orig_insns) {
		err = -ENOMEM;
		goto err;
	}
	if (flags & NB_PROG_LOAD_CHECKED)
		err = nb_resolve_helpers(prog, log);
	else if (flags & NB_PROG_LOAD_UNSAFE_NO_VERIFY)
		err = nb_fixup_unverified(prog, log);
	else
		err = nb_verify(prog, log);
	if (!err)
		err = nb_prog_resolve_callbacks(prog, log);
	if (err)
		goto err;
	/*
	 * A program without a JIT image runs on the interpreter: not an error. Checked loads
	 * compile in checked mode.
	 */
	if (!(flags & NB_PROG_LOAD_INTERP))
		nb_jit_compile(prog, log);
	err = claim_prog_maps(prog, log);
	if (!err)
		err = prog_id_alloc(prog);
	if (err)
		goto err;
	prog->load_time = boottime_ns();
	prog->uid = getuid();
	*progp = prog;
	return 0;
err:
	nb_prog_put(prog);
	return err;
}

struct nb_prog *nb_prog_get(struct nb_prog *prog)
{
	__atomic_add_fetch(&prog->refcnt, 1, __ATOMIC_RELAXED);
	return prog;
}

void nb_prog_put(struct nb_prog *prog)
{
	if (!prog || __atomic_sub_fetch(&prog->refcnt, 1, __ATOMIC_ACQ_REL) != 0)
		return;
	if (prog->id) {
		pthread_mutex_lock(&prog_ids_lock);
		prog_by_id[prog->id] = NULL;
		pthread_mutex_unlock(&prog_ids_lock);
	}
	nb_jit_free(prog);
	free(prog->callbacks);
	free(prog->funcs);
	nb_prog_free_btf_info(prog);
	for (u32 i = 0; i < prog->used_map_cnt; i++)
		nb_map_put(prog->used_maps[i]);
	free(prog->used_maps);
	free(prog->helpers);
	free(prog->orig_insns);
	free(prog->insns);
	free(prog->stats);
	free(prog);
}

__u64 nb_prog_run(const struct nb_prog *prog, const void *ctx)
{
	u64 ret;

	/* Map elements the program reads stay allocated until it returns (epoch.h). */
	nb_epoch_read_lock();
	ret = nb_prog_run_locked(prog, ctx);
	nb_epoch_read_unlock();
	return ret;
}

const char *nb_prog_name(const struct nb_prog *prog)
{
	return prog->name;
}

enum bpf_prog_type nb_prog_type(const struct nb_prog *prog)
{
	return prog->type;
}

__u32 nb_prog_id(const struct nb_prog *prog)
{
	return prog->id;
}

const struct bpf_insn *nb_prog_insns(const struct nb_prog *prog, unsigned int *cnt)
{
	*cnt = prog->orig_len;
	return prog->orig_insns;
}

const struct bpf_insn *nb_prog_xlated(const struct nb_prog *prog, unsigned int *cnt)
{
	*cnt = prog->len;
	return prog->insns;
}

void nb_prog_btf_info(const struct nb_prog *prog, struct nb_prog_btf_info *info)
{
	info->btf = prog->btf ? prog->btf->btf : NULL;
	info->func_info = prog->func_info;
	info->nr_func_info = prog->func_info_cnt;
	info->line_info = prog->linfo;
	info->nr_line_info = prog->nr_linfo;
}

bool nb_prog_is_jited(const struct nb_prog *prog)
{
	return prog->jited || prog->jited_checked;
}

int nb_prog_jited_image(const struct nb_prog *prog, struct nb_prog_jited_image *jited)
{
	if (!prog->jit_image)
		return -ENOENT;
	jited->image = prog->jit_image;
	jited->size = prog->jit_size;
	jited->insn_offs = prog->jit_insn_offs;
	return 0;
}

bool nb_prog_xdp_has_frags(const struct nb_prog *prog)
{
	return prog->load_flags & NB_PROG_LOAD_XDP_HAS_FRAGS;
}

__u32 nb_prog_verified_insns(const struct nb_prog *prog)
{
	return prog->verified_insns;
}
