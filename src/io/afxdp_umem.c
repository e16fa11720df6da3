// SPDX-License-Identifier: GPL-2.0
/*
 * The AF_XDP ports' UMEMs. A UMEM is memory registered with the kernel in frames of a page;
 * the sockets bound to it take their frames from its free stack: frames put in a socket's fill
 * ring come back received in its rx ring, frames put in its tx ring come back in its
 * completion ring. Sockets of this process share a UMEM (XDP_SHARED_UMEM: one frame memory, a
 * fill and a completion ring per device queue) when they ask for the same bind flags, up to
 * NB_AFXDP_UMEM_SOCKETS of them, so that a frame received on one port can leave through
 * another by its descriptor, the bytes where the kernel put them.
 *
 * A received frame becomes a packet's buffer without a copy (nb_afxdp_umem_pkt): the UMEM is
 * the buffer's owner (struct nb_pkt_buf_owner, the twin of the kernel's xdp_mem_info with
 * page_pool's return path), and the packet's last nb_pkt_free gives the frame back to the free
 * stack, on whichever thread that is; the next poll of a socket puts it in a fill ring again.
 * The frame's first NB_AFXDP_FRAME_HEADROOM bytes, the UMEM's frame headroom, which the kernel
 * never writes, hold the buffer's header; the kernel's XDP_PACKET_HEADROOM after it is the
 * packet's headroom.
 *
 * Packets may outlive the port that received them (queued, kept by a sink): a UMEM whose last
 * socket closes stays mapped until its last frame comes back (the page pool's deferred
 * release), so a packet never points into freed memory.
 *
 * Under AddressSanitizer a free frame is poisoned, so that a packet's use of its buffer after
 * the free is reported although the memory stays the UMEM's.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <net/if.h>
#include <sys/mman.h>
#include <linux/if_xdp.h>

#include "io/afxdp_umem.h"
#include "common/asan.h"

#define FRAMES_PER_SOCKET 4096			/* a fill ring's and a tx ring's worth */
#define UMEM_FRAMES (NB_AFXDP_UMEM_SOCKETS * FRAMES_PER_SOCKET)
#define RING_SIZE 2048				/* the fill and completion rings */

static pthread_mutex_t registry_lock = PTHREAD_MUTEX_INITIALIZER;
static struct nb_afxdp_umem *registry;		/* UMEMs with sockets */
static unsigned int umems_alive;		/* with the ones waiting for their packets */

static inline u64 frame_of(u64 addr)
{
	return addr & ~(u64)(NB_AFXDP_FRAME_SIZE - 1);
}

static void umem_destroy(struct nb_afxdp_umem *umem)
{
	size_t size = (size_t)umem->nframes * NB_AFXDP_FRAME_SIZE;

	/* the memory goes back to the system: no stale poison for its next user */
	UNPOISON(umem->area, size);
	munmap(umem->area, size);
	pthread_spin_destroy(&umem->lock);
	free(umem);
	__atomic_sub_fetch(&umems_alive, 1, __ATOMIC_RELAXED);
}

u32 nb_afxdp_umem_swap(struct nb_afxdp_umem *umem, const u64 *give, u32 ngive, u64 *take,
		       u32 ntake, int lent)
{
	bool last;

	if (!ngive && !ntake && !lent)
		return 0;
	for (u32 i = 0; i < ngive; i++)
		POISON(umem->area + frame_of(give[i]), NB_AFXDP_FRAME_SIZE);
	pthread_spin_lock(&umem->lock);
	for (u32 i = 0; i < ngive; i++)
		umem->free[umem->nfree++] = frame_of(give[i]);
	if (ntake > umem->nfree)
		ntake = umem->nfree;
	umem->nfree -= ntake;
	for (u32 i = 0; i < ntake; i++)
		take[i] = umem->free[umem->nfree + i];
	/* read without the lock by receivers deciding whether to lend more */
	__atomic_store_n(&umem->in_pkts, umem->in_pkts + lent, __ATOMIC_RELAXED);
	last = umem->dead && !umem->in_pkts;
	pthread_spin_unlock(&umem->lock);
	if (last)
		umem_destroy(umem);
	return ntake;
}

/* The last packet holding a frame lets go of it (nb_pkt_buf_owner.release). */
static void umem_release(struct nb_pkt_buf_owner *owner, u8 *head)
{
	struct nb_afxdp_umem *umem = container_of(owner, struct nb_afxdp_umem, owner);
	u64 addr = (u64)(head - umem->area);

	nb_afxdp_umem_swap(umem, &addr, 1, NULL, 0, -1);
}

struct nb_pkt *nb_afxdp_umem_pkt(struct nb_afxdp_umem *umem, u64 addr, u32 len)
{
	u64 frame = frame_of(addr);
	u8 *head = umem->area + frame + NB_AFXDP_FRAME_HEADROOM;

	if (addr - frame < NB_AFXDP_FRAME_HEADROOM)
		return NULL;
	UNPOISON(umem->area + frame, NB_AFXDP_FRAME_SIZE);
	return nb_pkt_alloc_owned(&umem->owner, head,
				  (u32)(addr - frame - NB_AFXDP_FRAME_HEADROOM), len);
}

void *nb_afxdp_umem_data(struct nb_afxdp_umem *umem, u64 addr)
{
	UNPOISON(umem->area + frame_of(addr), NB_AFXDP_FRAME_SIZE);
	return umem->area + addr;
}

bool nb_afxdp_umem_steal(struct nb_afxdp_umem *umem, struct nb_pkt *pkt, u64 *addr)
{
	u64 at = (u64)(pkt->data - umem->area);

	if (!nb_pkt_steal_head(pkt, &umem->owner))
		return false;
	*addr = at;
	return true;
}

u32 nb_afxdp_umem_in_pkts(struct nb_afxdp_umem *umem)
{
	return __atomic_load_n(&umem->in_pkts, __ATOMIC_RELAXED);
}

unsigned int nb_afxdp_umem_count(void)
{
	return __atomic_load_n(&umems_alive, __ATOMIC_RELAXED);
}

static struct nb_afxdp_umem *umem_create(const struct xsk_socket_config *cfg,
					 struct xsk_ring_prod *fq, struct xsk_ring_cons *cq)
{
	const struct xsk_umem_config ucfg = {
		.fill_size = RING_SIZE,
		.comp_size = RING_SIZE,
		.frame_size = NB_AFXDP_FRAME_SIZE,
		.frame_headroom = NB_AFXDP_FRAME_HEADROOM,
	};
	size_t size = (size_t)UMEM_FRAMES * NB_AFXDP_FRAME_SIZE;
	struct nb_afxdp_umem *umem;
	int err;

	umem = calloc(1, sizeof(*umem) + UMEM_FRAMES * sizeof(umem->free[0]));
	if (!umem)
		return NULL;
	umem->area = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (umem->area == MAP_FAILED) {
		free(umem);
		return NULL;
	}
	/* the fill and completion rings become the first socket's (libxdp) */
	err = xsk_umem__create(&umem->xsk_umem, umem->area, size, fq, cq, &ucfg);
	if (err) {
		munmap(umem->area, size);
		free(umem);
		errno = -err;
		return NULL;
	}
	umem->owner = (struct nb_pkt_buf_owner){
		.release = umem_release,
		.buf_size = NB_AFXDP_FRAME_SIZE - NB_AFXDP_FRAME_HEADROOM,
	};
	umem->nframes = UMEM_FRAMES;
	umem->bind_flags = cfg->bind_flags;
	pthread_spin_init(&umem->lock, PTHREAD_PROCESS_PRIVATE);
	for (u32 i = 0; i < UMEM_FRAMES; i++)
		umem->free[i] = (u64)(UMEM_FRAMES - 1 - i) * NB_AFXDP_FRAME_SIZE;
	umem->nfree = UMEM_FRAMES;
	POISON(umem->area, size);
	__atomic_add_fetch(&umems_alive, 1, __ATOMIC_RELAXED);
	return umem;
}

/*
 * One of our sockets is bound to ifindex's queue qid already: -EBUSY; or a UMEM's first
 * socket, closed while the UMEM goes on, still holds it: -EADDRINUSE. 0: the queue is free.
 */
static int queue_taken(int ifindex, u32 qid)
{
	for (struct nb_afxdp_umem *umem = registry; umem; umem = umem->next) {
		if (umem->first_closed && umem->first_ifindex == ifindex && umem->first_qid == qid)
			return -EADDRINUSE;
		for (u32 i = 0; i < NB_AFXDP_UMEM_SOCKETS; i++) {
			if (umem->socks[i].xsk && umem->socks[i].ifindex == ifindex &&
			    umem->socks[i].qid == qid)
				return -EBUSY;
		}
	}
	return 0;
}

/* A UMEM to share: bound alike, with room for a socket. */
static struct nb_afxdp_umem *umem_to_share(u16 bind_flags)
{
	for (struct nb_afxdp_umem *umem = registry; umem; umem = umem->next) {
		if (umem->bind_flags == bind_flags && umem->sockets < NB_AFXDP_UMEM_SOCKETS)
			return umem;
	}
	return NULL;
}

int nb_afxdp_umem_socket(const char *ifname, u32 qid, const struct xsk_socket_config *cfg,
			 struct xsk_socket **xskp, struct nb_afxdp_umem **umemp,
			 struct xsk_ring_cons *rx, struct xsk_ring_prod *tx,
			 struct xsk_ring_prod *fq, struct xsk_ring_cons *cq)
{
	int ifindex = (int)if_nametoindex(ifname), err;
	struct nb_afxdp_umem *umem;
	u32 slot;

	if (!ifindex)
		return -ENODEV;
	pthread_mutex_lock(&registry_lock);
	/*
	 * A second socket on a queue would share the first one's fill ring (the kernel allows
	 * it within a UMEM): the queue is busy, as the kernel says for a socket of another UMEM.
	 */
	err = queue_taken(ifindex, qid);
	if (err)
		goto out;
	umem = umem_to_share(cfg->bind_flags);
	if (umem) {
		err = xsk_socket__create_shared(xskp, ifname, qid, umem->xsk_umem, rx, tx, fq, cq,
						cfg);
		if (!err)
			goto bound;
		/* a queue that is busy is busy for a UMEM of its own too */
		if (err == -EBUSY)
			goto out;
	}
	umem = umem_create(cfg, fq, cq);
	if (!umem) {
		err = -errno;
		goto out;
	}
	err = xsk_socket__create_shared(xskp, ifname, qid, umem->xsk_umem, rx, tx, fq, cq, cfg);
	if (err) {
		xsk_umem__delete(umem->xsk_umem);
		umem_destroy(umem);
		goto out;
	}
	umem->first_ifindex = ifindex;
	umem->first_qid = qid;
	umem->next = registry;
	registry = umem;
bound:
	for (slot = 0; umem->socks[slot].xsk; slot++)
		;
	umem->socks[slot].xsk = *xskp;
	umem->socks[slot].ifindex = ifindex;
	umem->socks[slot].qid = qid;
	umem->sockets++;
	*umemp = umem;
out:
	pthread_mutex_unlock(&registry_lock);
	return err;
}

void nb_afxdp_umem_socket_close(struct nb_afxdp_umem *umem, struct xsk_socket *xsk,
				const u64 *back, u32 nback)
{
	/*
	 * libxdp keeps the UMEM's first socket open, on the UMEM's fd, until the UMEM ends: that
	 * socket stays bound and in the XSKMAP, and the kernel may go on taking its fill ring's
	 * frames, which therefore stay out.
	 */
	bool released = xsk_socket__fd(xsk) != xsk_umem__fd(umem->xsk_umem);
	bool last;

	pthread_mutex_lock(&registry_lock);
	xsk_socket__delete(xsk);
	for (u32 i = 0; i < NB_AFXDP_UMEM_SOCKETS; i++) {
		if (umem->socks[i].xsk == xsk)
			umem->socks[i].xsk = NULL;
	}
	if (!released)
		umem->first_closed = true;
	if (--umem->sockets) {
		/*
		 * The socket is gone: the kernel takes no more of its fill ring's frames. Under
		 * the lock, which keeps the UMEM's last socket from closing meanwhile.
		 */
		if (released)
			nb_afxdp_umem_swap(umem, back, nback, NULL, 0, 0);
		pthread_mutex_unlock(&registry_lock);
		return;
	}
	for (struct nb_afxdp_umem **pp = &registry; *pp; pp = &(*pp)->next) {
		if (*pp == umem) {
			*pp = umem->next;
			break;
		}
	}
	xsk_umem__delete(umem->xsk_umem);
	pthread_mutex_unlock(&registry_lock);
	pthread_spin_lock(&umem->lock);
	umem->dead = true;
	last = !umem->in_pkts;
	pthread_spin_unlock(&umem->lock);
	if (last)
		umem_destroy(umem);
}
