// SPDX-License-Identifier: GPL-2.0
/*
 * bpf_timer in the verifier, as the kernel's process_timer_func and its async callbacks: the
 * timer is the struct bpf_timer of a map value, found in the map's BTF (map_fields.c), passed
 * to the helpers at its constant offset; bpf_timer_init's map must be the timer's own map. The
 * callback bpf_timer_set_callback names runs later, on its own, with nothing of its caller: it
 * is verified as a path of its own pushed at the call (push_async_cb), from frame 0 with the
 * arguments the timer gives it (map, key, value), and must return 0 (check_return_code, as
 * the kernel's). Loads and stores that touch the timer's bytes are refused
 * (check_map_field_access), as for a bpf_spin_lock.
 */
#include <stdlib.h>

#include "bpf/verifier/verifier.h"

int process_timer_func(struct nb_verifier_env *env, int regno, struct nb_map **map_ptr,
		       u32 *map_uid)
{
	const struct nb_reg_state *reg = &cur_regs(env)[regno];
	int err;

	err = check_map_field_pointer(env, regno, NB_MAP_FIELD_TIMER);
	if (err)
		return err;
	if (*map_ptr) {
		verbose(env, "verifier bug. Two map pointers in a timer helper\n");
		return -EFAULT;
	}
	*map_ptr = reg->map_ptr;
	*map_uid = reg->map_uid;
	return 0;
}

/*
 * The callback's path: a state of its own (the caller's state does not matter: the timer runs
 * the callback later, from nothing), pushed to be walked after the current path. Its arguments
 * are the timer's map, its value's key and the value (set_timer_callback_state).
 */
int push_async_cb(struct nb_verifier_env *env, u32 insn_idx, u32 subprog, struct nb_map *map)
{
	struct nb_stack_elem *elem;
	struct nb_func_state *f;
	struct nb_reg_state *r;

	elem = calloc(1, sizeof(*elem));
	f = calloc(1, sizeof(*f));
	if (!elem || !f) {
		free(elem);
		free(f);
		return -ENOMEM;
	}
	elem->st.frame[0] = f;
	elem->st.first_insn_idx = env->subprog[subprog].start;
	/* Its start is the start of a function: backtracking stops there. */
	elem->st.last_insn_idx = (u32)-1;
	elem->insn_idx = env->subprog[subprog].start;
	elem->prev_insn_idx = (u32)-1;
	/* A failure in the callback shows the callback's path only. */
	elem->log_trace_len = 0;
	f->subprogno = subprog;
	f->callsite = insn_idx;
	f->in_async_callback_fn = true;
	r = f->regs;
	for (int i = 0; i < NB_MAX_BPF_REG; i++)
		mark_reg_not_init(&r[i]);
	mark_pointer(&r[BPF_REG_10], PTR_TO_STACK);
	mark_pointer(&r[BPF_REG_1], CONST_PTR_TO_MAP);
	r[BPF_REG_1].map_ptr = map;
	mark_pointer(&r[BPF_REG_2], PTR_TO_MAP_KEY);
	r[BPF_REG_2].map_ptr = map;
	mark_pointer(&r[BPF_REG_3], PTR_TO_MAP_VALUE);
	r[BPF_REG_3].map_ptr = map;
	env->subprog[subprog].is_callback = true;
	env->subprog[subprog].is_async_cb = true;
	elem->next = env->head;
	env->head = elem;
	env->stack_size++;
	return 0;
}
