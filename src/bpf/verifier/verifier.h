/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The verifier's internal state, the twin of the kernel's bpf_verifier.h: abstract register and
 * stack states, the verifier state of one path (a chain of call frames), and the environment of
 * one verification run. Only src/bpf/verifier/ includes this header.
 */
#ifndef NB_VERIFIER_H
#define NB_VERIFIER_H

#include <errno.h>
#include <limits.h>

#include "bpf/helper_proto.h"
#include "bpf/prog.h"
#include "bpf/prog_type.h"
#include "bpf/map.h"
#include "bpf/verifier/tnum.h"

#define NB_REG_SIZE		8
#define NB_MAX_VAR_OFF		(1 << 29)	/* BPF_MAX_VAR_OFF */
#define NB_MAX_VAR_SIZ		(1 << 29)	/* BPF_MAX_VAR_SIZ */
#define NB_MAX_PACKET_OFF	0xffff		/* MAX_PACKET_OFF */
#define NB_COMPLEXITY_LIMIT	1000000		/* BPF_COMPLEXITY_LIMIT_INSNS */
#define NB_MAX_SUBPROGS		256
#define NB_MAX_REFS		64
#define NB_MAX_BPF_FUNC_ARGS	5		/* MAX_BPF_FUNC_REG_ARGS: r1..r5 */

/* Abstract register types, as the kernel's enum bpf_reg_type; flags above the base type. */
enum nb_reg_type {
	NOT_INIT = 0,
	SCALAR_VALUE,
	PTR_TO_CTX,
	CONST_PTR_TO_MAP,
	PTR_TO_MAP_VALUE,
	PTR_TO_MAP_KEY,
	PTR_TO_STACK,
	PTR_TO_PACKET_META,
	PTR_TO_PACKET,
	PTR_TO_PACKET_END,
	PTR_TO_MEM,
	PTR_TO_FUNC,
	/*
	 * Sockets, as the uapi views of them (struct bpf_sock, the sock_common part of it,
	 * struct bpf_tcp_sock). netbpf has no sockets: no such pointer is ever non-NULL when a
	 * program runs, but the verifier checks programs that use them as the kernel does.
	 */
	PTR_TO_SOCKET,
	PTR_TO_SOCK_COMMON,
	PTR_TO_TCP_SOCK,
	/*
	 * A kernel struct described by vmlinux BTF (btf_ptr.c): btf_id is its type. Its fields
	 * are read as the kernel's BTF lays them out; at run time netbpf's such pointers are
	 * NULL, and reads through them give 0, as the kernel's faulting loads do.
	 */
	PTR_TO_BTF_ID,
	NB_BASE_TYPE_MASK = 0xff,
	PTR_MAYBE_NULL = 1 << 8,
	MEM_RDONLY = 1 << 9,
	MEM_RINGBUF = 1 << 10,
	PTR_UNTRUSTED = 1 << 11,	/* PTR_TO_BTF_ID walked from an untrusted one */
	PTR_TRUSTED = 1 << 12,		/* PTR_TO_BTF_ID a helper vouches for */
	MEM_USER = 1 << 13,		/* PTR_TO_BTF_ID tagged __user: never read */
	MEM_PERCPU = 1 << 14,		/* PTR_TO_BTF_ID tagged __percpu: never read */
};

static inline u32 base_type(u32 type)
{
	return type & NB_BASE_TYPE_MASK;
}

struct nb_reg_state {
	u32 type;			/* enum nb_reg_type with flags */
	s32 off;			/* fixed offset of a pointer */
	/*
	 * Packet: bytes proven readable from the base (r=), or where the pointer is known to be
	 * relative to pkt_end (AT_PKT_END, BEYOND_PKT_END) after a failed comparison.
	 */
	s32 range;
	u32 mem_size;			/* PTR_TO_MEM: size of the region */
	struct nb_map *map_ptr;		/* map value, map key, map pointer */
	/*
	 * An inner map with timers in its values, and pointers into its values: the id of the
	 * lookup that gave it (the kernel's map_uid), telling apart two inner maps of one
	 * template, so that a timer is initialised with its own map.
	 */
	u32 map_uid;
	/*
	 * Copies share it: null checks, packet ranges, scalars. A scalar's id with an
	 * NB_ADD_CONST flag is a copy of another scalar plus off (linked registers).
	 */
	u32 id;
	u32 ref_obj_id;			/* acquired reference this pointer holds */
	u32 frameno;			/* PTR_TO_STACK: which frame */
	u32 subprogno;			/* PTR_TO_FUNC */
	u32 btf_id;			/* PTR_TO_BTF_ID: the struct's id in vmlinux BTF */
	struct tnum var_off;		/* scalars: the value; pointers: the variable offset */
	s64 smin_value, smax_value;
	u64 umin_value, umax_value;
	s32 s32_min_value, s32_max_value;
	u32 u32_min_value, u32_max_value;
	/*
	 * Scalars: the value decides safety on some path from an explored state (set by
	 * mark_chain_precision in explored states only); an imprecise scalar of an explored state
	 * matches any scalar in pruning.
	 */
	bool precise;
	/* The slots of a dynptr (STACK_DYNPTR): its enum nb_dynptr_type, and which half. */
	u8 dynptr_type;
	bool dynptr_first_slot;
};

/* reg->range of a packet pointer known to be at or beyond pkt_end. */
#define AT_PKT_END		(-1)
#define BEYOND_PKT_END		(-2)

/*
 * A scalar id with one of these flags links a register to the others of the same id plus the
 * constant in its off (r1 = r2; r1 += 4), in 64- or 32-bit arithmetic: a bound learned on one
 * moves onto the others shifted by the difference (sync_linked_regs), as BPF_ADD_CONST does.
 */
#define NB_ADD_CONST64		(1U << 31)
#define NB_ADD_CONST32		(1U << 30)
#define NB_ADD_CONST		(NB_ADD_CONST64 | NB_ADD_CONST32)

/* Per-byte stack slot state. */
enum nb_stack_type {
	STACK_INVALID = 0,	/* never written: reads are rejected */
	STACK_SPILL,		/* part of a spilled register (spilled_ptr) */
	STACK_MISC,		/* some initialised bytes */
	STACK_ZERO,		/* known zero bytes */
	STACK_DYNPTR,		/* half of a struct bpf_dynptr (dynptr.c) */
};

/*
 * One 8-byte stack slot; slot_type[0] is the lowest address. A spilled register starts at the
 * slot's start (its first bytes are STACK_SPILL): pointers take the whole slot, a scalar the
 * width that was written, spilled_ptr holding the full register either way.
 */
struct nb_stack_slot {
	struct nb_reg_state spilled_ptr;
	u8 slot_type[NB_REG_SIZE];
};

static inline bool slot_has_spill(const struct nb_stack_slot *slot)
{
	return slot->slot_type[0] == STACK_SPILL;
}

struct nb_func_state {
	struct nb_reg_state regs[NB_MAX_BPF_REG];
	u32 callsite;		/* call instruction in the caller; unused in frame 0 */
	u32 frameno;
	u32 subprogno;
	bool in_callback_fn;	/* returns to the helper, R0 must be 0 or 1 */
	/* A timer callback, verified as a path of its own from frame 0 (timer.c). */
	bool in_async_callback_fn;
	u32 callback_ret_min, callback_ret_max;
	/* Callback iterations entered from this frame's current helper call (bpf_loop's bound). */
	u32 callback_depth;
	u32 allocated_stack;	/* bytes; slot i covers fp-(i+1)*8 .. fp-i*8-1 */
	struct nb_stack_slot *stack;
};

struct nb_ref_state {
	u32 id;
	u32 insn_idx;
};

/* Flags of a jump history entry (the kernel's INSN_F_*). */
#define NB_INSN_F_FRAMENO_MASK	0x7	/* frame of the stack slot accessed */
#define NB_INSN_F_SPI_MASK	0x3f	/* slot index, shifted by NB_INSN_F_SPI_SHIFT */
#define NB_INSN_F_SPI_SHIFT	3
#define NB_INSN_F_STACK_ACCESS	(1u << 9)	/* a spill or fill of a register */
#define NB_INSN_F_DST_REG_STACK	(1u << 10)	/* a jump comparing a stack pointer (dst) */
#define NB_INSN_F_SRC_REG_STACK	(1u << 11)	/* ... (src) */

/*
 * One entry of a state's jump history: an instruction reached other than by falling through
 * from the one before (idx came from prev_idx), or one whose stack access or linked registers
 * precision backtracking needs to know.
 */
struct nb_jmp_history_entry {
	u32 idx;
	u32 prev_idx;
	u32 flags;
	u64 linked_regs;	/* registers sharing a scalar id at a branch (precision.c) */
};

/* The state of one path: call frames, held references, and its place among explored states. */
struct nb_verifier_state {
	struct nb_func_state *frame[NB_MAX_CALL_FRAMES];
	u32 curframe;
	struct nb_ref_state refs[NB_MAX_REFS];
	u32 acquired_refs;
	/* Nearest explored ancestor; explored states count their unfinished descendants. */
	struct nb_verifier_state *parent;
	u32 branches;
	u32 insn_idx;
	/*
	 * The instructions walked since the parent checkpoint: from first_insn_idx (this state's
	 * own checkpoint) to insn_idx, the jumps among them in jmp_history; last_insn_idx is the
	 * instruction before insn_idx. Precision backtracking walks them backwards.
	 */
	u32 first_insn_idx;
	u32 last_insn_idx;
	struct nb_jmp_history_entry *jmp_history;
	u32 jmp_history_cnt, jmp_history_cap;
	u32 dfs_depth;			/* checkpoints above this state on its path */
	u32 callback_unroll_depth;	/* callback iterations entered on this path */
	u32 may_goto_depth;		/* may_goto fall-throughs taken on this path */
	/*
	 * The bpf_spin_lock held (spin_lock.c): the value pointer's id and map that took it, and
	 * where. One at most, as the kernel allows.
	 */
	bool active_lock;
	u32 active_lock_id;
	const struct nb_map *active_lock_map;
	u32 active_lock_insn;
	bool cleaned;			/* dead registers and slots already forgotten */
	/* A backedge copy: the explored state in the same loop found equal to it. */
	struct nb_verifier_state *equal_state;
};

/* A state kept at a prune point for equivalence checks, chained per instruction. */
struct nb_state_list {
	struct nb_state_list *next, **pprev;
	struct nb_verifier_state state;
	u32 miss_cnt, hit_cnt;
	bool in_free_list;	/* evicted; freed once no path below it is unfinished */
};

/* A branch waiting to be explored. */
struct nb_stack_elem {
	struct nb_verifier_state st;
	u32 insn_idx;
	u32 prev_insn_idx;
	u32 log_trace_len;
	struct nb_stack_elem *next;
};

/* What the verifier learned about one instruction, for fixups and consistency checks. */
struct nb_insn_aux {
	u32 ptr_type;		/* base type of the memory operand, same on every path */
	u32 ctx_field_size;	/* narrow ctx loads */
	bool seen;
	bool prune_point;	/* states are compared here (is_state_visited) */
	bool jmp_point;		/* reached other than by falling through: recorded in history */
	bool force_checkpoint;	/* callback calls: a state is always kept */
	bool calls_callback;
	u16 live_regs;		/* registers possibly read before written from here */
	u32 scc;		/* strongly connected component (loop) of the insn, 0: none */
	/*
	 * A tail call or LD_ABS may leave its function here (subprog_scan.c): an exit of the
	 * function plus one, a successor of the instruction for the liveness analyses; 0: none.
	 */
	u32 early_exit;
	/*
	 * Helper calls with a map argument and reads through a map pointer: the map every path
	 * had (record_insn_map), or poisoned when two paths had different maps. Inner maps appear
	 * as their template.
	 */
	struct nb_map *map_ptr;
	bool map_poisoned;
};

/* What a global function's argument receives, from its BTF prototype (btf_prepare_func_args). */
enum nb_subprog_arg_type {
	NB_SUBPROG_ARG_SCALAR = 0,	/* an int or enum: any scalar */
	NB_SUBPROG_ARG_CTX,		/* the program's context */
	NB_SUBPROG_ARG_MEM,		/* mem_size bytes of memory, or NULL when nullable */
};

struct nb_subprog_arg {
	enum nb_subprog_arg_type type;
	bool nullable;
	u32 mem_size;
};

struct nb_subprog_info {
	u32 start;
	u32 stack_depth;
	u32 postorder_start;	/* its instructions in env->insn_postorder */
	bool is_callback;
	bool is_async_cb;	/* a timer callback: a stack of its own, not its caller's */
	/* From its instructions (subprog_scan.c). */
	bool has_tail_call;
	bool has_ld_abs;
	bool changes_pkt_data;	/* it, or a function it calls, may move the packet data */
	/* From its func_info record (btf_func.c). */
	u32 btf_id;		/* its BTF_KIND_FUNC; 0 without func_info */
	bool is_global;		/* BTF_FUNC_GLOBAL: verified once, on its own */
	bool args_cached;	/* arg_cnt and args[] derived from the prototype */
	bool unreliable;	/* the prototype cannot be used (bad BTF, a call that mismatched) */
	bool called;		/* a global function some verified path calls */
	bool verified;		/* a global function verified on its own */
	u32 arg_cnt;
	struct nb_subprog_arg args[NB_MAX_BPF_FUNC_ARGS];
};

/* Registers and stack slots per frame that precision backtracking looks for. */
struct nb_backtrack_state {
	u32 frame;
	u32 reg_masks[NB_MAX_CALL_FRAMES];
	u64 stack_masks[NB_MAX_CALL_FRAMES];
};

struct nb_scc_info;
struct nb_liveness;

/* One entry of the failing path, recorded in verbose mode. */
struct nb_trace_entry {
	u32 insn_idx;
	s32 regno;		/* register written, -1 none */
	u32 frameno;
	struct nb_reg_state reg;
};

struct nb_verifier_env {
	struct nb_prog *prog;
	const struct bpf_line_info *prev_linfo;	/* the last source line the log printed */
	const struct nb_prog_type_ops *ops;
	struct bpf_insn *insns;
	u32 len;
	struct nb_log *log;
	struct nb_log msg;		/* the reason of a rejection, printed after the insn */
	bool log_verbose;
	/*
	 * Reads of never-written stack yield unknown scalars instead of a rejection, as for a
	 * privileged (CAP_PERFMON) kernel loader: tc and XDP programs are loaded by root. Off
	 * under NB_PROG_LOAD_NO_UNINIT_STACK.
	 */
	bool allow_uninit_stack;
	/*
	 * allow_uninit_stack decided something: a read or write it let through, or (under
	 * note_uninit_stack, which rechecks every pruning without it) a state it let match. While
	 * false, the walk is the one a loader without CAP_PERFMON would get (stack.c, states.c).
	 */
	bool uninit_stack_used;
	bool note_uninit_stack;

	struct nb_insn_aux *aux;
	struct nb_subprog_info subprog[NB_MAX_SUBPROGS + 1];	/* + sentinel (start = len) */
	u32 subprog_cnt;

	struct nb_verifier_state *cur;
	struct nb_stack_elem *head;	/* pending branches */
	u32 stack_size;
	struct nb_state_list **explored;	/* per instruction */
	struct nb_state_list *free_list;	/* dropped, still referenced as parents */
	u32 free_list_size, explored_states_size, num_backedges;
	u32 insn_idx, prev_insn_idx;
	u32 id_gen;
	/* The history entry of the instruction being checked, -1: none yet (precision.c). */
	s32 cur_hist_ent;
	struct nb_backtrack_state bt;

	/* cfg.c: instructions of each subprogram in postorder, for the dataflow analyses */
	u32 *insn_postorder;
	/* scc.c: loops, and the visits of the walk inside them */
	struct nb_scc_info **scc_info;
	u32 scc_cnt;
	/* liveness.c: which stack slots may still be read */
	struct nb_liveness *liveness;

	/* Statistics, as the kernel prints them. */
	u32 insn_processed;
	u32 prev_insn_processed;
	u32 jmps_processed;
	u32 prev_jmps_processed;
	u32 total_states;
	u32 peak_states;
	u32 max_states_per_insn;

	/* Verbose mode: the current path. */
	struct nb_trace_entry *trace;
	u32 trace_len, trace_cap;
	bool trace_overflow;

	bool seen_direct_write;
	/* Scratch idmap for state equivalence. */
	struct { u32 old, cur; } idmap[NB_MAX_BPF_REG * NB_MAX_CALL_FRAMES * 8 + 64];
	u32 idmap_cnt;
	u32 idmap_tmp_id;	/* fresh ids for scalars linked to nothing (check_scalar_ids) */
};

/* verbose(): kernel-like log line. */
void nb_vlog(struct nb_verifier_env *env, const char *fmt, ...) __printf(2, 3);
#define verbose nb_vlog

static inline struct nb_func_state *cur_func(struct nb_verifier_env *env)
{
	return env->cur->frame[env->cur->curframe];
}

static inline struct nb_reg_state *cur_regs(struct nb_verifier_env *env)
{
	return cur_func(env)->regs;
}

/* reg_state.c: bounds bookkeeping */
void mark_reg_unknown(struct nb_reg_state *reg);
void mark_reg_not_init(struct nb_reg_state *reg);
void mark_reg_known(struct nb_reg_state *reg, u64 imm);
void mark_reg_known_zero(struct nb_reg_state *reg);
void mark_reg_unbounded(struct nb_reg_state *reg);
void mark_reg32_unbounded(struct nb_reg_state *reg);
void mark_reg64_unbounded(struct nb_reg_state *reg);
void reg_update_bounds(struct nb_reg_state *reg);
void reg_update_bounds32(struct nb_reg_state *reg);
void reg_bounds_sync(struct nb_reg_state *reg);
bool reg_bounds_sane(const struct nb_reg_state *reg);
void coerce_reg_to_size(struct nb_reg_state *reg, int size);
void coerce_reg_to_size_sx(struct nb_reg_state *reg, int size);
void coerce_subreg_to_size_sx(struct nb_reg_state *reg, int size);
void zext_32_to_64(struct nb_reg_state *reg);
void mark_pointer(struct nb_reg_state *reg, u32 type);
bool reg_is_const(const struct nb_reg_state *reg, bool is32);
u64 reg_const_value(const struct nb_reg_state *reg, bool is32);
bool register_is_null(const struct nb_reg_state *reg);
bool reg_is_pkt_pointer(const struct nb_reg_state *reg);
bool reg_is_pkt_pointer_any(const struct nb_reg_state *reg);
bool reg_is_pointer(const struct nb_reg_state *reg);
bool reg_type_may_be_null(u32 type);

/* log.c */
const char *reg_type_str(u32 type);
void print_reg_state(struct nb_verifier_env *env, const struct nb_reg_state *reg);
void print_verifier_state(struct nb_verifier_env *env, const struct nb_func_state *state);
void print_insn(struct nb_verifier_env *env, u32 idx);
void trace_push(struct nb_verifier_env *env, s32 regno);
void print_failing_path(struct nb_verifier_env *env);
/* "ctx the register R0 has smin=.. smax=.. should have been in [min, max]" */
void verbose_invalid_scalar(struct nb_verifier_env *env, const struct nb_reg_state *reg,
			    s32 min, s32 max, const char *ctx);

/* alu.c */
/* Scalar dst op= src (insn gives the op and width); exported for the bounds tests. */
int adjust_scalar_min_max_vals(struct nb_verifier_env *env, struct bpf_insn *insn,
			       struct nb_reg_state *dst, struct nb_reg_state src);
int check_alu_op(struct nb_verifier_env *env, struct bpf_insn *insn);
/* dst += src on the bounds of both widths and the tnum (linked registers' shifts) */
void scalar_add_const(struct nb_reg_state *dst, const struct nb_reg_state *src);
int check_reg_arg_read(struct nb_verifier_env *env, u32 regno);
int check_reg_arg_write(struct nb_verifier_env *env, u32 regno);
void assign_scalar_id_before_mov(struct nb_verifier_env *env, struct nb_reg_state *src);

/* branches.c; the first three are exported for the bounds tests */
#define NB_JNSET 0xf0	/* internal opcode: "no bit in common", the negation of JSET */
u8 rev_opcode(u8 op);
int is_branch_taken(const struct nb_reg_state *r1, const struct nb_reg_state *r2, u8 op,
		    bool is32);
bool regs_refine_cond_op(struct nb_reg_state *r1, struct nb_reg_state *r2, u8 op, bool is32);
int check_cond_jmp_op(struct nb_verifier_env *env, struct bpf_insn *insn, u32 *insn_idx);

/* stack.c */
int grow_stack_state(struct nb_func_state *state, u32 size);
int check_stack_access_within_bounds(struct nb_verifier_env *env, int regno, int off,
				     int access_size, enum nb_access_type type);
int check_stack_write(struct nb_verifier_env *env, int ptr_regno, int off, int size,
		      int value_regno, const struct bpf_insn *insn);
int check_stack_read(struct nb_verifier_env *env, int ptr_regno, int off, int size,
		     int dst_regno);
int check_stack_range(struct nb_verifier_env *env, int regno, int off, int access_size,
		      bool zero_size_allowed, bool write);
void update_stack_depth(struct nb_verifier_env *env, const struct nb_func_state *state,
			int off);
struct nb_func_state *func_of_reg(struct nb_verifier_env *env, const struct nb_reg_state *reg);

/* mem_access.c */
int check_mem_access(struct nb_verifier_env *env, u32 insn_idx, u32 regno, int off,
		     int bpf_size, enum nb_access_type t, int value_regno, bool is_ldsx);
int check_load_store(struct nb_verifier_env *env, struct bpf_insn *insn);
int check_atomic(struct nb_verifier_env *env, struct bpf_insn *insn);
int check_ld_abs(struct nb_verifier_env *env, struct bpf_insn *insn);
int check_ld_imm(struct nb_verifier_env *env, struct bpf_insn *insn);
int check_helper_mem_access(struct nb_verifier_env *env, int regno, int access_size,
			    bool zero_size_allowed, bool uninit_write);
bool may_access_direct_pkt_data(struct nb_verifier_env *env, enum nb_access_type t);
int check_ptr_off_reg(struct nb_verifier_env *env, const struct nb_reg_state *reg, u32 regno);
/* The same, but at a constant offset (not negative) from where it was made. */
int check_ptr_fixed_off_reg(struct nb_verifier_env *env, const struct nb_reg_state *reg,
			    u32 regno);

/* calls.c */
int check_helper_call(struct nb_verifier_env *env, struct bpf_insn *insn, u32 *insn_idx);
/*
 * The map insn_idx uses, for the fixup (the kernel's record_func_map): in-line lookups, reads
 * of a map's kernel struct.
 */
void record_insn_map(struct nb_verifier_env *env, u32 insn_idx, struct nb_map *map);
int check_func_call(struct nb_verifier_env *env, struct bpf_insn *insn, u32 *insn_idx);
int prepare_func_exit(struct nb_verifier_env *env, u32 *insn_idx);
int subprog_early_return(struct nb_verifier_env *env, u32 *insn_idx, bool r0_zero);
int acquire_reference(struct nb_verifier_env *env, u32 insn_idx);
int release_reference(struct nb_verifier_env *env, u32 ref_obj_id);
void clear_all_pkt_pointers(struct nb_verifier_env *env);
int find_subprog(struct nb_verifier_env *env, u32 off);

/* btf_func.c: the program's BTF func_info and line_info */
int check_btf_info(struct nb_verifier_env *env);
int btf_prepare_func_args(struct nb_verifier_env *env, u32 subprog);
int btf_check_subprog_call(struct nb_verifier_env *env, u32 subprog,
			   const struct nb_reg_state *regs);
const char *subprog_name(const struct nb_verifier_env *env, u32 subprog);
void print_insn_source(struct nb_verifier_env *env, u32 insn_idx);

/* spin_lock.c */
enum nb_map_field {
	NB_MAP_FIELD_SPIN_LOCK,
	NB_MAP_FIELD_TIMER,
};

int check_map_field_access(struct nb_verifier_env *env, const struct nb_reg_state *reg,
			   int off, int size);
int check_map_field_pointer(struct nb_verifier_env *env, int regno, enum nb_map_field field);
int process_spin_lock(struct nb_verifier_env *env, int regno, bool is_lock);
int check_call_while_locked(struct nb_verifier_env *env, const struct bpf_insn *insn);
/* what ("BPF_EXIT instruction in main prog") may not happen while a lock is held. */
int check_lock_released(struct nb_verifier_env *env, const char *what);

/* timer.c: bpf_timer helpers and their callbacks */
int process_timer_func(struct nb_verifier_env *env, int regno, struct nb_map **map_ptr,
		       u32 *map_uid);
int push_async_cb(struct nb_verifier_env *env, u32 insn_idx, u32 subprog, struct nb_map *map);

/* dynptr.c: struct bpf_dynptr on the stack */
int process_dynptr_func(struct nb_verifier_env *env, int regno, enum nb_arg_type type,
			u32 *ref_obj_id);
int release_dynptr(struct nb_verifier_env *env, int regno);
/* A write reaching slot spi ends the dynptr there; a referenced one cannot be overwritten. */
int destroy_if_dynptr_stack_slot(struct nb_verifier_env *env, struct nb_func_state *state,
				 int spi);
/* Pruning: the same half of a dynptr of the same type (the references compare by idmap). */
bool dynptr_slot_safe(const struct nb_stack_slot *old, const struct nb_stack_slot *cur);

/* subprog_scan.c */
void scan_subprogs(struct nb_verifier_env *env);

/* sock.c: socket pointers */
bool type_is_sk_pointer(u32 type);
int check_sock_access(struct nb_verifier_env *env, u32 regno, int off, int size,
		      enum nb_access_type t);
int check_sock_arg(struct nb_verifier_env *env, u32 regno, enum nb_arg_type type);
bool is_acquire_function(int func_id, const struct nb_map *map);
bool is_ptr_cast_function(int func_id);

/* btf_ptr.c: kernel structs through vmlinux BTF */
int check_ptr_to_map_access(struct nb_verifier_env *env, u32 regno, int off, int size,
			    enum nb_access_type t, int value_regno);
int check_ptr_to_btf_access(struct nb_verifier_env *env, u32 regno, int off, int size,
			    enum nb_access_type t, int value_regno);
const char *btf_ptr_type_name(u32 btf_id);
/* The id of struct name in vmlinux BTF in *id, or an error saying why there is none. */
int btf_ptr_struct_id(struct nb_verifier_env *env, const char *name, u32 *id);
/* A PTR_TO_BTF_ID argument that must be a struct sock_common (ARG_PTR_TO_BTF_ID_SOCK_COMMON). */
int check_btf_sock_arg(struct nb_verifier_env *env, u32 regno);

/* map_compat.c */
int check_map_func_compatibility(struct nb_verifier_env *env, struct nb_map *map, int func_id);

/* cfg.c */
int check_subprogs(struct nb_verifier_env *env);
int check_cfg(struct nb_verifier_env *env);
int insn_successors(const struct nb_verifier_env *env, u32 idx, u32 succ[2]);
int compute_postorder(struct nb_verifier_env *env);
void compute_live_registers(struct nb_verifier_env *env);
bool is_sync_callback_calling_insn(const struct bpf_insn *insn);

/* scc.c */
int compute_scc(struct nb_verifier_env *env);
int maybe_enter_scc(struct nb_verifier_env *env, struct nb_verifier_state *st);
int maybe_exit_scc(struct nb_verifier_env *env, struct nb_verifier_state *st);
int add_scc_backedge(struct nb_verifier_env *env, struct nb_verifier_state *st,
		     const struct nb_verifier_state *cur);
bool incomplete_read_marks(struct nb_verifier_env *env, const struct nb_verifier_state *st);
void free_scc_visits(struct nb_verifier_env *env);
void free_scc_info(struct nb_verifier_env *env);

/* precision.c */
int push_jmp_history(struct nb_verifier_env *env, struct nb_verifier_state *st, u32 flags,
		     u64 linked_regs);
void clear_jmp_history(struct nb_verifier_state *st);
u32 insn_stack_access_flags(u32 frameno, u32 spi);
int push_linked_regs(struct nb_verifier_env *env, const struct nb_reg_state *dst,
		     const struct nb_reg_state *src);
int mark_chain_precision(struct nb_verifier_env *env, int regno);
int mark_stack_slot_precision(struct nb_verifier_env *env, u32 frameno, u32 spi);
void mark_all_scalars_precise(struct nb_verifier_state *st);
void mark_all_scalars_imprecise(struct nb_verifier_state *st);
int propagate_precision(struct nb_verifier_env *env, const struct nb_verifier_state *old,
			struct nb_verifier_state *cur, bool *changed);

/* liveness.c: which stack slots may be read, per call chain and instruction */
int nb_stack_liveness_init(struct nb_verifier_env *env);
void nb_stack_liveness_free(struct nb_verifier_env *env);
int nb_mark_stack_read(struct nb_verifier_env *env, u32 frame, u32 insn_idx, u64 mask);
void nb_mark_stack_write(struct nb_verifier_env *env, u32 frame, u64 mask);
int nb_reset_stack_write_marks(struct nb_verifier_env *env, u32 insn_idx);
int nb_commit_stack_write_marks(struct nb_verifier_env *env);
void nb_reset_live_stack_callchain(struct nb_verifier_env *env);
int nb_update_live_stack(struct nb_verifier_env *env);
int nb_live_stack_query_init(struct nb_verifier_env *env, const struct nb_verifier_state *st);
bool nb_stack_slot_alive(struct nb_verifier_env *env, u32 frameno, u32 spi);

/* states.c */
int is_state_visited(struct nb_verifier_env *env, u32 insn_idx);
int copy_verifier_state(struct nb_verifier_state *dst, const struct nb_verifier_state *src);
void free_verifier_state(struct nb_verifier_state *state, bool free_self);
void free_func_state(struct nb_func_state *state);
int update_branch_counts(struct nb_verifier_env *env, struct nb_verifier_state *st);
void update_peak_states(struct nb_verifier_env *env);
void free_explored_states(struct nb_verifier_env *env);
struct nb_verifier_state *find_prev_entry(struct nb_verifier_env *env,
					  const struct nb_verifier_state *cur, u32 insn_idx);
void widen_imprecise_scalars(struct nb_verifier_env *env, const struct nb_verifier_state *old,
			     struct nb_verifier_state *cur);
u32 frame_insn_idx(const struct nb_verifier_state *st, u32 frame);

/* verifier.c: the walk */
struct nb_verifier_state *push_stack(struct nb_verifier_env *env, u32 insn_idx,
				     u32 prev_insn_idx);
int mark_ptr_type(struct nb_verifier_env *env, u32 insn_idx, u32 type);

/* fixup.c */
/* ctx accesses rewritten, known map lookups in line (after the proof) */
int fixup_insns(struct nb_verifier_env *env);
int check_max_stack_depth(struct nb_verifier_env *env);

/* Iterate over every register and spilled register of every frame of a state. */
#define for_each_reg_in_state(vstate, __reg, body)                                          \
	do {                                                                                \
		for (u32 fr_ = 0; fr_ <= (vstate)->curframe; fr_++) {                       \
			struct nb_func_state *fs_ = (vstate)->frame[fr_];                   \
			for (u32 r_ = 0; r_ < NB_MAX_BPF_REG; r_++) {                       \
				__reg = &fs_->regs[r_];                                     \
				body;                                                       \
			}                                                                   \
			for (u32 s_ = 0; s_ < fs_->allocated_stack / NB_REG_SIZE; s_++) {   \
				if (!slot_has_spill(&fs_->stack[s_]))                       \
					continue;                                           \
				__reg = &fs_->stack[s_].spilled_ptr;                        \
				body;                                                       \
			}                                                                   \
		}                                                                           \
	} while (0)

#endif /* NB_VERIFIER_H */
