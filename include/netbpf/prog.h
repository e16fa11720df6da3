/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Programs: load (structural check, verifier, fixup, JIT), run, release.
 *
 * Map references in ldimm64 instructions follow the kernel's conventions, with netbpf map ids in
 * place of file descriptors: BPF_PSEUDO_MAP_FD / BPF_PSEUDO_MAP_VALUE carry a map id,
 * BPF_PSEUDO_MAP_IDX / BPF_PSEUDO_MAP_IDX_VALUE an index into opts->maps (the fd_array twin).
 */
#ifndef NETBPF_PROG_H
#define NETBPF_PROG_H

#include <stdbool.h>
#include <stddef.h>
#include <linux/bpf.h>

#include <netbpf/log.h>

#ifdef __cplusplus
extern "C" {
#endif

struct nb_prog;
struct nb_map;
struct nb_btf;
struct btf;

enum nb_prog_load_flags {
	/* Never JIT-compile: run on the interpreter (the --interp switch). */
	NB_PROG_LOAD_INTERP = 1U << 0,
	/*
	 * No verifier proof: the program may only run under the checked interpreter, which bounds
	 * every memory access and instruction count at run time (netbpf vm run, fuzzing).
	 */
	NB_PROG_LOAD_CHECKED = 1U << 1,
	/* Skip the verifier and run unchecked: for debugging the engines only (--unsafe-no-verify). */
	NB_PROG_LOAD_UNSAFE_NO_VERIFY = 1U << 2,
	/*
	 * An XDP program that handles frames with fragments (BPF_F_XDP_HAS_FRAGS, section
	 * "xdp.frags"): the XDP hook gives it a frame beyond a page as it is, where another
	 * program gets it made linear first, as the kernel's generic XDP does.
	 */
	NB_PROG_LOAD_XDP_HAS_FRAGS = 1U << 3,
};

struct nb_prog_load_opts {
	size_t sz; /* sizeof(struct nb_prog_load_opts), for forward compatibility */
	const char *name;
	enum bpf_attach_type expected_attach_type;
	const char *license; /* "GPL" and friends unlock gpl_only helpers */
	unsigned int flags;  /* enum nb_prog_load_flags */
	struct nb_map *const *maps; /* for BPF_PSEUDO_MAP_IDX(_VALUE) */
	unsigned int map_cnt;
	struct nb_log *log;
	/*
	 * BPF_PROG_LOAD's prog_btf_fd, func_info and line_info: the BTF (include/netbpf/btf.h) of
	 * the program's functions, one struct bpf_func_info per function (its first instruction
	 * and its BTF_KIND_FUNC) and struct bpf_line_info records naming each instruction's source
	 * line. With func_info the verifier checks global (non-static) functions once, on their
	 * own, from their prototypes, and allows tail calls and LD_ABS in subprograms; with
	 * line_info its log shows the source. Records may be larger than these structs (rec_size)
	 * if the bytes beyond them are zero. The program takes a reference on btf.
	 */
	struct nb_btf *btf;
	const void *func_info;
	unsigned int func_info_rec_size;
	unsigned int func_info_cnt;
	const void *line_info;
	unsigned int line_info_rec_size;
	unsigned int line_info_cnt;
};

int nb_prog_load(enum bpf_prog_type type, const struct bpf_insn *insns, unsigned int insn_cnt,
		 const struct nb_prog_load_opts *opts, struct nb_prog **progp);
struct nb_prog *nb_prog_get(struct nb_prog *prog);
/* A new reference on the program with this id, or NULL. */
struct nb_prog *nb_prog_get_by_id(__u32 id);
void nb_prog_put(struct nb_prog *prog);

/* Run a verified program on its context (r1 = ctx). */
__u64 nb_prog_run(const struct nb_prog *prog, const void *ctx);

/*
 * Run a program loaded with NB_PROG_LOAD_CHECKED: r1 = mem (NULL when len is 0), r2 = len.
 * Returns 0 and r0, or a negative errno with the instruction index and reason in log.
 */
int nb_prog_run_checked(const struct nb_prog *prog, void *mem, size_t len, __u64 *r0,
			struct nb_log *log);

const char *nb_prog_name(const struct nb_prog *prog);
enum bpf_prog_type nb_prog_type(const struct nb_prog *prog);
__u32 nb_prog_id(const struct nb_prog *prog);
/* Instructions as loaded, and as the engines run them after the verifier's fixup. */
const struct bpf_insn *nb_prog_insns(const struct nb_prog *prog, unsigned int *cnt);
const struct bpf_insn *nb_prog_xlated(const struct nb_prog *prog, unsigned int *cnt);
bool nb_prog_is_jited(const struct nb_prog *prog);
/*
 * The native code of a JIT-compiled program (bpf_prog_info's jited_prog_insns and
 * jited_line_info): the image, its size, and where in it each instruction of nb_prog_xlated
 * begins; insn_offs has one entry more, where the code after the last instruction (the fault
 * stubs) begins. Valid while the program lives.
 */
struct nb_prog_jited_image {
	const __u8 *image;
	size_t size;
	const __u32 *insn_offs;
};

/*
 * A program's BTF information, as bpf_prog_info hands it out (btf_id, func_info, line_info):
 * its BTF (libbpf's parse; NULL when loaded without), each function's record and each source
 * line's, their insn_off counting instructions of nb_prog_xlated. Valid while the program is.
 */
struct nb_prog_btf_info {
	const struct btf *btf;
	const struct bpf_func_info *func_info;
	__u32 nr_func_info;
	const struct bpf_line_info *line_info;
	__u32 nr_line_info;
};

void nb_prog_btf_info(const struct nb_prog *prog, struct nb_prog_btf_info *info);

/* 0, or -ENOENT when the program has no native code (it runs in the interpreter). */
int nb_prog_jited_image(const struct nb_prog *prog, struct nb_prog_jited_image *jited);
/* Loaded with NB_PROG_LOAD_XDP_HAS_FRAGS (prog->aux->xdp_has_frags). */
bool nb_prog_xdp_has_frags(const struct nb_prog *prog);
/* Instructions the verifier processed on its walk (bpf_prog_info's verified_insns); 0 unverified. */
__u32 nb_prog_verified_insns(const struct nb_prog *prog);
/*
 * The kernel's program tag (bpf_prog_info.tag, "tag" in tc and bpftool): the first 8 bytes of
 * the SHA-256 of the loaded instructions with map load immediates zeroed (src/bpf/prog_tag.c).
 */
int nb_prog_tag(const struct nb_prog *prog, __u8 tag[BPF_TAG_SIZE]);

/* The next program id above start_id (0: the first), as BPF_PROG_GET_NEXT_ID; -ENOENT: none. */
int nb_prog_get_next_id(__u32 start_id, __u32 *next_id);

#define NB_PROG_INFO_MAP_IDS 64

/* What bpftool prog show prints, as struct bpf_prog_info holds it. */
struct nb_prog_info {
	__u32 id;
	enum bpf_prog_type type;
	char name[BPF_OBJ_NAME_LEN];
	__u8 tag[BPF_TAG_SIZE];
	bool gpl_compatible;
	__u32 xlated_prog_len;		/* bytes of instructions as the engines run them */
	__u32 jited_prog_len;		/* bytes of machine code; 0: interpreted */
	__u32 verified_insns;
	__u32 nr_map_ids;		/* maps the program uses (the first 64 in map_ids) */
	__u32 map_ids[NB_PROG_INFO_MAP_IDS];
	__u64 run_time_ns;		/* while statistics were on (nb_bpf_stats_enable) */
	__u64 run_cnt;
	__u64 load_time;		/* when it was loaded: CLOCK_BOOTTIME ns, as the kernel's */
	__u32 created_by_uid;		/* the real uid of the process that loaded it */
	__u32 btf_id;			/* its BTF's id (nb_btf_id), 0: loaded without BTF */
	__u64 memlock;			/* bytes the kernel charges for it (fdinfo's memlock) */
};

int nb_prog_get_info(const struct nb_prog *prog, struct nb_prog_info *info);

/*
 * Count and time every program run, as sysctl kernel.bpf_stats_enabled=1 does: two clock reads
 * per run, so off unless asked for.
 */
void nb_bpf_stats_enable(bool on);
bool nb_bpf_stats_enabled(void);

#ifdef __cplusplus
}
#endif

#endif /* NETBPF_PROG_H */
