// SPDX-License-Identifier: GPL-2.0
/*
 * Programs that reach symbols the object does not define (a kfunc, a __kconfig variable) beside
 * one that does not: as with libbpf, only the programs that reach them fail, at load.
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

extern void bpf_rcu_read_lock(void) __ksym;
extern int LINUX_KERNEL_VERSION __kconfig;

SEC("tc")
int plain(struct __sk_buff *skb)
{
	return 3;
}

SEC("tc")
int calls_kfunc(struct __sk_buff *skb)
{
	bpf_rcu_read_lock();
	return 1;
}

SEC("tc")
int reads_kconfig(struct __sk_buff *skb)
{
	return LINUX_KERNEL_VERSION;
}

char LICENSE[] SEC("license") = "GPL";
