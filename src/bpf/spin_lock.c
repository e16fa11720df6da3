// SPDX-License-Identifier: GPL-2.0
/*
 * bpf_spin_lock and bpf_spin_unlock: a real lock, the 4 bytes of the struct bpf_spin_lock in a
 * map value (0: free, 1: held), taken by test-and-set. The verifier guarantees what makes this
 * safe: one lock held at a time, no call but the unlock while holding it, the same value
 * unlocked, nothing left locked at the program's exit. The kernel's holder runs with interrupts
 * off; a netbpf worker holding a lock may be preempted, which delays the others without
 * breaking the exclusion. Userspace copies a value under the same lock with BPF_F_LOCK.
 */
#include <string.h>

#include "bpf/helpers.h"
#include "bpf/map.h"

static inline void cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
	__builtin_ia32_pause();
#endif
}

static void lock_word(u32 *lock)
{
	while (__atomic_exchange_n(lock, 1, __ATOMIC_ACQUIRE)) {
		/* Spin on reads, not on exchanges that bounce the line between cores. */
		while (__atomic_load_n(lock, __ATOMIC_RELAXED))
			cpu_relax();
	}
}

static void unlock_word(u32 *lock)
{
	__atomic_store_n(lock, 0, __ATOMIC_RELEASE);
}

static u64 bpf_spin_lock(u64 r1, u64 r2, u64 r3, u64 r4, u64 r5)
{
	lock_word((u32 *)(uintptr_t)r1);
	return 0;
}

static u64 bpf_spin_unlock(u64 r1, u64 r2, u64 r3, u64 r4, u64 r5)
{
	unlock_word((u32 *)(uintptr_t)r1);
	return 0;
}

const struct nb_func_proto nb_spin_lock_proto = {
	.func = bpf_spin_lock,
	.ret_type = NB_RET_VOID,
	.arg_type = { NB_ARG_PTR_TO_SPIN_LOCK },
};

const struct nb_func_proto nb_spin_unlock_proto = {
	.func = bpf_spin_unlock,
	.ret_type = NB_RET_VOID,
	.arg_type = { NB_ARG_PTR_TO_SPIN_LOCK },
};

void nb_map_copy_value_locked(const struct nb_map *map, void *dst, const void *src,
			      bool lock_src)
{
	u32 *lock = (u32 *)((u8 *)(lock_src ? (void *)src : dst) + map->spin_lock_off);

	lock_word(lock);
	nb_map_copy_value(map, dst, src);
	unlock_word(lock);
}
