// SPDX-License-Identifier: GPL-2.0
/*
 * Programs that tail-call through a program array holding themselves: the reference cycle the
 * kernel breaks when the array's last user reference goes (bpf_fd_array_map_clear). One array
 * is private to the object, the other pinned by name, so it outlives the object.
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

int again(void *ctx);
int again_pinned(void *ctx);

struct {
	__uint(type, BPF_MAP_TYPE_PROG_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__array(values, int (void *));
} self_jmp SEC(".maps") = {
	.values = { [0] = (void *)&again },
};

struct {
	__uint(type, BPF_MAP_TYPE_PROG_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__uint(pinning, LIBBPF_PIN_BY_NAME);
	__array(values, int (void *));
} self_jmp_pinned SEC(".maps") = {
	.values = { [0] = (void *)&again_pinned },
};

/* Tail-calls itself until the limit of 33; returns 1 once the tail call fails. */
SEC("socket")
int again(void *ctx)
{
	bpf_tail_call(ctx, &self_jmp, 0);
	return 1;
}

SEC("socket")
int again_pinned(void *ctx)
{
	bpf_tail_call(ctx, &self_jmp_pinned, 0);
	return 2;
}

char _license[] SEC("license") = "GPL";
