// SPDX-License-Identifier: GPL-2.0
/*
 * Packets and their pool: accounting, clones sharing data, private copies on write, threads,
 * buffers lent by owners other than the pool.
 */
#include <errno.h>
#include <pthread.h>
#include <arpa/inet.h>

#include "net/eth.h"
#include "pkt/pkt.h"
#include "test.h"

NB_TEST(pkt_alloc_layout)
{
	struct nb_pkt *pkt = nb_pkt_alloc();

	NB_ASSERT(pkt);
	NB_ASSERT_EQ(nb_pkt_headroom(pkt), NB_PKT_HEADROOM);
	NB_ASSERT_EQ(pkt->len, 0);
	NB_ASSERT_EQ(nb_pkt_tailroom(pkt), NB_PKT_MAX_LEN);
	NB_ASSERT_EQ(pkt->mac_header, NB_PKT_HDR_UNSET);
	NB_ASSERT_EQ((uintptr_t)pkt->head % 64, 0);
	memset(nb_pkt_put(pkt, NB_PKT_MAX_LEN), 0xab, NB_PKT_MAX_LEN);
	memset(nb_pkt_push(pkt, NB_PKT_HEADROOM), 0xcd, NB_PKT_HEADROOM);
	NB_ASSERT_EQ(nb_pkt_headroom(pkt), 0);
	NB_ASSERT_EQ(nb_pkt_tailroom(pkt), 0);
	NB_ASSERT_EQ(nb_pkt_pool_outstanding(), 2);	/* a descriptor and a buffer */
	nb_pkt_free(pkt);
	NB_ASSERT_EQ(nb_pkt_pool_outstanding(), 0);
	/* beyond the longest frame there is nothing to allocate (fragments: test_pkt_frags.c) */
	NB_ASSERT(!nb_pkt_alloc_data("x", NB_PKT_MAX_FRAME + 1));
	NB_ASSERT_EQ(nb_pkt_pool_outstanding(), 0);
}

/* A burst at once: packets as nb_pkt_alloc makes them, each with its own buffer. */
NB_TEST(pkt_alloc_free_bulk)
{
	static struct nb_pkt *pkts[200];
	struct nb_pkt *clone;

	NB_ASSERT_EQ(nb_pkt_alloc_bulk(pkts, 200), 200);
	NB_ASSERT_EQ(nb_pkt_pool_outstanding(), 400);
	for (unsigned int i = 0; i < 200; i++) {
		NB_ASSERT_EQ(nb_pkt_headroom(pkts[i]), NB_PKT_HEADROOM);
		NB_ASSERT_EQ(pkts[i]->len, 0);
		NB_ASSERT_EQ(nb_pkt_tailroom(pkts[i]), NB_PKT_MAX_LEN);
		NB_ASSERT_EQ(pkts[i]->network_header, NB_PKT_HDR_UNSET);
		NB_ASSERT(!pkts[i]->cloned && !pkts[i]->dev);
		memcpy(nb_pkt_put(pkts[i], sizeof(i)), &i, sizeof(i));
	}
	for (unsigned int i = 0; i < 200; i++) {
		unsigned int v;

		memcpy(&v, pkts[i]->data, sizeof(v));
		NB_ASSERT_EQ(v, i);	/* no two packets share a buffer */
	}
	/* a clone keeps the buffer its original shared when the burst goes */
	clone = nb_pkt_clone(pkts[5]);
	NB_ASSERT(clone);
	nb_pkt_free_bulk(pkts, 200);
	NB_ASSERT_EQ(nb_pkt_pool_outstanding(), 2);
	NB_ASSERT_EQ(*(unsigned int *)clone->data, 5);
	nb_pkt_free(clone);
	NB_ASSERT_EQ(nb_pkt_pool_outstanding(), 0);
}

/* Many packets in flight at once: the pool grows, then everything comes back. */
NB_TEST(pkt_pool_accounting)
{
	static struct nb_pkt *pkts[3000];

	for (int i = 0; i < 3000; i++) {
		pkts[i] = nb_pkt_alloc_data(&i, sizeof(i));
		NB_ASSERT(pkts[i]);
	}
	NB_ASSERT_EQ(nb_pkt_pool_outstanding(), 6000);
	for (int i = 0; i < 3000; i++) {
		int v;

		memcpy(&v, pkts[i]->data, sizeof(v));
		NB_ASSERT_EQ(v, i);	/* no two packets share a buffer */
		pkts[i]->next = i + 1 < 3000 ? pkts[i + 1] : NULL;
	}
	nb_pkt_free_list(pkts[0]);
	NB_ASSERT_EQ(nb_pkt_pool_outstanding(), 0);
	nb_pkt_pool_flush_cache();
	NB_ASSERT_EQ(nb_pkt_pool_outstanding(), 0);
}

NB_TEST(pkt_clone_shares_data)
{
	struct nb_pkt *pkt = nb_pkt_alloc_data("abcdef", 6), *clone;

	pkt->mark = 5;
	clone = nb_pkt_clone(pkt);
	NB_ASSERT(clone);
	NB_ASSERT_EQ(clone->data, pkt->data);
	NB_ASSERT_EQ(clone->mark, 5);
	NB_ASSERT(nb_pkt_shared_data(pkt) && nb_pkt_shared_data(clone));
	NB_ASSERT_EQ(nb_pkt_pool_outstanding(), 3);	/* two descriptors, one buffer */
	nb_pkt_free(pkt);
	NB_ASSERT_EQ(nb_pkt_pool_outstanding(), 2);
	NB_ASSERT(!nb_pkt_shared_data(clone));
	NB_ASSERT_MEM_EQ(clone->data, "abcdef", 6);
	nb_pkt_free(clone);
	NB_ASSERT_EQ(nb_pkt_pool_outstanding(), 0);
}

/* A write to shared data takes a private copy; the other sharer keeps the old bytes. */
NB_TEST(pkt_ensure_writable_unshares)
{
	struct nb_pkt *pkt = nb_pkt_alloc_data("abcdef", 6), *clone;
	u8 *old;

	nb_pkt_pull(pkt, 2);		/* data at "cdef" */
	pkt->meta_len = 2;
	clone = nb_pkt_clone(pkt);
	old = clone->data;
	NB_ASSERT_EQ(nb_pkt_ensure_writable(clone, 5), -ENOMEM);	/* past the end */
	NB_ASSERT_EQ(clone->data, old);
	NB_ASSERT_EQ(nb_pkt_ensure_writable(clone, 4), 0);
	NB_ASSERT(clone->data != old);
	NB_ASSERT_EQ(nb_pkt_headroom(clone), nb_pkt_headroom(pkt));
	NB_ASSERT_MEM_EQ(clone->data - 2, "abcdef", 6);	/* headroom bytes copied too */
	NB_ASSERT_EQ(clone->bpf_data_end, clone->data + 4);
	NB_ASSERT_EQ(clone->bpf_data_meta, clone->data - 2);
	clone->data[0] = 'X';
	NB_ASSERT_MEM_EQ(pkt->data, "cdef", 4);
	NB_ASSERT(!nb_pkt_shared_data(pkt) && !nb_pkt_shared_data(clone));
	NB_ASSERT_EQ(nb_pkt_pool_outstanding(), 4);
	/* Not shared: no copy. */
	old = pkt->data;
	NB_ASSERT_EQ(nb_pkt_ensure_writable(pkt, 4), 0);
	NB_ASSERT_EQ(pkt->data, old);
	nb_pkt_free(pkt);
	nb_pkt_free(clone);
	NB_ASSERT_EQ(nb_pkt_pool_outstanding(), 0);
}

NB_TEST(pkt_copy)
{
	struct nb_pkt *pkt = nb_pkt_alloc_data("hello", 5), *copy;

	pkt->priority = 3;
	copy = nb_pkt_copy(pkt);
	NB_ASSERT(copy && copy->data != pkt->data);
	NB_ASSERT_MEM_EQ(copy->data, "hello", 5);
	NB_ASSERT_EQ(copy->priority, 3);
	NB_ASSERT(!nb_pkt_shared_data(copy));
	nb_pkt_free(pkt);
	nb_pkt_free(copy);
	NB_ASSERT_EQ(nb_pkt_pool_outstanding(), 0);
}

static void *worker(void *arg)
{
	struct nb_pkt **out = arg;

	/* Allocate and free through this thread's cache, hand one packet to the main thread. */
	for (int i = 0; i < 500; i++)
		nb_pkt_free(nb_pkt_alloc());
	*out = nb_pkt_alloc_data("t", 1);
	return NULL;
}

/* A thread's cached objects return when it ends; packets may be freed by another thread. */
NB_TEST(pkt_pool_threads)
{
	struct nb_pkt *from[4] = { 0 };
	pthread_t t[4];

	for (int i = 0; i < 4; i++)
		NB_ASSERT_EQ(pthread_create(&t[i], NULL, worker, &from[i]), 0);
	for (int i = 0; i < 4; i++)
		pthread_join(t[i], NULL);
	NB_ASSERT_EQ(nb_pkt_pool_outstanding(), 8);
	for (int i = 0; i < 4; i++) {
		NB_ASSERT(from[i] && from[i]->data[0] == 't');
		nb_pkt_free(from[i]);
	}
	NB_ASSERT_EQ(nb_pkt_pool_outstanding(), 0);
}

NB_TEST(pkt_eth_type_trans)
{
	u8 f[60] = { 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 2, 0, 0, 0, 0, 1, 0x81, 0x00 };
	struct nb_pkt *pkt = nb_pkt_alloc_data(f, sizeof(f));

	nb_eth_type_trans(pkt, NULL);
	NB_ASSERT_EQ(pkt->pkt_type, PACKET_BROADCAST);
	NB_ASSERT_EQ(pkt->protocol, htons(ETH_P_8021Q));
	NB_ASSERT_EQ(pkt->mac_header, NB_PKT_HEADROOM);
	NB_ASSERT_EQ(pkt->network_header, NB_PKT_HEADROOM + ETH_HLEN);
	NB_ASSERT_EQ(pkt->data, pkt->head + NB_PKT_HEADROOM);	/* data stays at L2 */
	pkt->data[0] = 0x01;					/* multicast */
	nb_eth_type_trans(pkt, NULL);
	NB_ASSERT_EQ(pkt->pkt_type, PACKET_MULTICAST);
	pkt->data[0] = 0x02;
	pkt->data[12] = 0x00;					/* 802.3 length */
	pkt->data[13] = 0x2e;
	nb_eth_type_trans(pkt, NULL);
	NB_ASSERT_EQ(pkt->pkt_type, PACKET_HOST);
	NB_ASSERT_EQ(pkt->protocol, htons(ETH_P_802_2));
	nb_pkt_free(pkt);
}

/* Headroom is made by moving the bytes within the buffer, headers and metadata with them. */
NB_TEST(pkt_cow_head)
{
	struct nb_pkt *pkt = nb_pkt_alloc(), *clone, *big = nb_pkt_alloc();

	pkt->data = pkt->head + 6;
	memcpy(nb_pkt_put(pkt, 16), "0123456789abcdef", 16);
	memcpy(pkt->head + 2, "META", 4);
	pkt->meta_len = 4;
	nb_pkt_reset_mac_header(pkt);
	nb_pkt_set_network_header(pkt, 14);
	clone = nb_pkt_clone(pkt);
	NB_ASSERT_EQ(nb_pkt_cow_head(pkt, 64), 0);
	NB_ASSERT(nb_pkt_headroom(pkt) >= 64);
	NB_ASSERT(!nb_pkt_shared_data(pkt));
	NB_ASSERT_MEM_EQ(pkt->data, "0123456789abcdef", 16);
	NB_ASSERT_MEM_EQ(pkt->data - 4, "META", 4);
	NB_ASSERT_EQ(nb_pkt_mac_header(pkt), pkt->data);
	NB_ASSERT_EQ(nb_pkt_network_header(pkt), pkt->data + 14);
	NB_ASSERT_EQ(pkt->bpf_data_end, pkt->data + 16);
	NB_ASSERT_EQ(clone->data, clone->head + 6);	/* the sharer is untouched */
	NB_ASSERT_MEM_EQ(clone->data, "0123456789abcdef", 16);
	/* A full page has no room to give: the packet moves to a big buffer, which has. */
	memset(nb_pkt_put(big, NB_PKT_MAX_LEN), 0x5a, NB_PKT_MAX_LEN);
	NB_ASSERT_EQ(nb_pkt_cow_head(big, NB_PKT_HEADROOM), 0);
	NB_ASSERT_EQ(big->end, NB_PKT_BUF_SIZE - NB_PKT_TAILROOM);
	NB_ASSERT_EQ(nb_pkt_cow_head(big, NB_PKT_HEADROOM + 1), 0);
	NB_ASSERT_EQ(big->end, NB_PKT_BIG_BUF_SIZE - NB_PKT_TAILROOM);
	NB_ASSERT(nb_pkt_headroom(big) >= NB_PKT_HEADROOM + 1);
	NB_ASSERT_EQ(big->len, NB_PKT_MAX_LEN);
	NB_ASSERT_EQ(big->data[0], 0x5a);
	NB_ASSERT_EQ(big->data[NB_PKT_MAX_LEN - 1], 0x5a);
	nb_pkt_free(big);
	nb_pkt_free(clone);
	nb_pkt_free(pkt);
	NB_ASSERT_EQ(nb_pkt_pool_outstanding(), 0);
}

/* An offloaded tag goes into the frame behind the MAC addresses. */
NB_TEST(pkt_vlan_push_inside)
{
	u8 f[60] = { 2, 0, 0, 0, 0, 2, 2, 0, 0, 0, 0, 1, 0x08, 0x00, 0x45 };
	struct nb_pkt *pkt = nb_pkt_alloc_data(f, sizeof(f));

	nb_eth_type_trans(pkt, NULL);
	NB_ASSERT_EQ(nb_pkt_vlan_push_inside(pkt), 0);		/* nothing to do */
	NB_ASSERT_EQ(pkt->len, 60);
	pkt->vlan_present = 1;
	pkt->vlan_proto = htons(ETH_P_8021AD);
	pkt->vlan_tci = 0x2064;
	NB_ASSERT_EQ(nb_pkt_vlan_push_inside(pkt), 0);
	NB_ASSERT_EQ(pkt->len, 64);
	NB_ASSERT_MEM_EQ(pkt->data, f, 12);
	NB_ASSERT_MEM_EQ(pkt->data + 12, "\x88\xa8\x20\x64\x08\x00\x45", 7);
	NB_ASSERT_EQ(pkt->protocol, htons(ETH_P_8021AD));
	NB_ASSERT_EQ(pkt->vlan_present, 0);
	NB_ASSERT_EQ(nb_pkt_mac_header(pkt), pkt->data);
	NB_ASSERT_EQ(nb_pkt_network_header(pkt), pkt->data + 18);
	nb_pkt_free(pkt);
}

struct clone_batch {
	struct nb_pkt *pkts[2000];
	unsigned int n;
};

static void *free_clones(void *arg)
{
	struct clone_batch *b = arg;

	for (unsigned int i = 0; i < b->n; i++)
		nb_pkt_free(b->pkts[i]);
	return NULL;
}

/* Originals and their clones freed at once by two threads: the last one frees the buffer. */
NB_TEST(pkt_clone_free_across_threads)
{
	static struct clone_batch clones;
	struct nb_pkt *orig[2000];
	pthread_t t;

	for (int i = 0; i < 2000; i++) {
		orig[i] = nb_pkt_alloc_data(&i, sizeof(i));
		clones.pkts[i] = nb_pkt_clone(orig[i]);
		NB_ASSERT(orig[i] && clones.pkts[i]);
	}
	clones.n = 2000;
	NB_ASSERT_EQ(nb_pkt_pool_outstanding(), 6000);
	NB_ASSERT_EQ(pthread_create(&t, NULL, free_clones, &clones), 0);
	for (int i = 0; i < 2000; i++)
		nb_pkt_free(orig[i]);
	pthread_join(t, NULL);
	NB_ASSERT_EQ(nb_pkt_pool_outstanding(), 0);
}

/* An owner of one buffer, as an AF_XDP UMEM lends its frames: counts what comes back. */
struct one_owner {
	struct nb_pkt_buf_owner owner;
	u8 *head;
	unsigned int released;
};

static void one_owner_release(struct nb_pkt_buf_owner *owner, u8 *head)
{
	struct one_owner *o = container_of(owner, struct one_owner, owner);

	NB_ASSERT(head == o->head);
	__atomic_add_fetch(&o->released, 1, __ATOMIC_SEQ_CST);
}

static void *free_one(void *arg)
{
	nb_pkt_free(arg);
	return NULL;
}

/*
 * A buffer lent by an owner other than the pool: the packet reads the bytes in place, the
 * owner takes the buffer back once, when the last packet holding it goes (on whichever thread),
 * or never when the head is stolen; a packet that does not fit is refused and costs nothing.
 */
NB_TEST(pkt_owned_buffer)
{
	static u8 mem[4096] __attribute__((aligned(64)));
	struct one_owner o = { .owner = { .release = one_owner_release,
					  .buf_size = sizeof(mem) - NB_PKT_BUF_HDR },
			       .head = mem + NB_PKT_BUF_HDR };
	struct nb_pkt *pkt, *clone;
	pthread_t t;

	memcpy(o.head + 256, "frame", 5);
	NB_ASSERT(!nb_pkt_alloc_owned(&o.owner, o.head, 256, o.owner.buf_size));
	NB_ASSERT_EQ(nb_pkt_pool_outstanding(), 0);
	pkt = nb_pkt_alloc_owned(&o.owner, o.head, 256, 5);
	NB_ASSERT(pkt);
	NB_ASSERT(pkt->data == o.head + 256);
	NB_ASSERT_EQ(pkt->len, 5);
	NB_ASSERT_EQ(nb_pkt_headroom(pkt), 256);
	NB_ASSERT_EQ(nb_pkt_pool_outstanding(), 1);	/* a descriptor, no pool buffer */

	/* shared by a clone: not stealable, back only when both are gone */
	clone = nb_pkt_clone(pkt);
	NB_ASSERT(clone && clone->data == pkt->data);
	NB_ASSERT(!nb_pkt_head_stealable(pkt, &o.owner));
	NB_ASSERT(!nb_pkt_steal_head(pkt, &o.owner));
	nb_pkt_free(pkt);
	NB_ASSERT_EQ(o.released, 0);
	NB_ASSERT_MEM_EQ(clone->data, "frame", 5);
	NB_ASSERT_EQ(pthread_create(&t, NULL, free_one, clone), 0);
	pthread_join(t, NULL);
	NB_ASSERT_EQ(o.released, 1);

	/* a clone's private copy leaves the owner's buffer to the original */
	pkt = nb_pkt_alloc_owned(&o.owner, o.head, 256, 5);
	clone = nb_pkt_clone(pkt);
	NB_ASSERT_EQ(nb_pkt_ensure_writable(clone, 5), 0);
	NB_ASSERT(clone->data != pkt->data);
	NB_ASSERT(nb_pkt_head_stealable(pkt, &o.owner));
	nb_pkt_free(clone);
	NB_ASSERT_EQ(o.released, 1);
	nb_pkt_free(pkt);
	NB_ASSERT_EQ(o.released, 2);

	/* a stolen head is the caller's again: the owner is not called, only another owner's */
	pkt = nb_pkt_alloc_owned(&o.owner, o.head, 256, 5);
	NB_ASSERT(!nb_pkt_steal_head(pkt, &(struct nb_pkt_buf_owner){ 0 }));
	NB_ASSERT(nb_pkt_steal_head(pkt, &o.owner));
	NB_ASSERT_EQ(o.released, 2);
	NB_ASSERT_EQ(nb_pkt_pool_outstanding(), 0);
	/* a pool packet is never stolen */
	pkt = nb_pkt_alloc_data("x", 1);
	NB_ASSERT(!nb_pkt_steal_head(pkt, &o.owner));
	nb_pkt_free(pkt);
	NB_ASSERT_EQ(nb_pkt_pool_outstanding(), 0);
}
