// SPDX-License-Identifier: GPL-2.0
/*
 * Maps whose elements are kernel objects netbpf does not have: sockets (sockmap, sockhash,
 * reuseport_sockarray, sk_storage: net/core/sock_map.c, kernel/bpf/reuseport_array.c,
 * net/core/bpf_sk_storage.c) and cgroups (cgroup_array, cgroup_storage and its per-CPU twin:
 * kernel/bpf/arraymap.c, kernel/bpf/local_storage.c). Objects built for the kernel create them
 * even where a program never touches them, so netbpf creates them with the kernel's attribute
 * rules and errors. They stay empty: programs find nothing in them, userspace reads find
 * nothing, and an update, which names the socket or cgroup by a file descriptor, fails as the
 * kernel fails for that descriptor in this process (EBADF, ENOTSOCK; a real socket, which the
 * kernel would take, EOPNOTSUPP), and nb_map_absent_objects says why.
 */
#include <errno.h>
#include <stdlib.h>
#include <sys/stat.h>

#include "bpf/map.h"
#include "bpf/maps/array.h"

/* The kernel's SOCK_CREATE_FLAG_MASK and LOCAL_STORAGE_CREATE_FLAG_MASK. */
#define SOCK_CREATE_FLAG_MASK (BPF_F_NUMA_NODE | BPF_F_RDONLY | BPF_F_WRONLY)
#define CGROUP_STORAGE_CREATE_FLAG_MASK (BPF_F_NUMA_NODE | NB_MAP_F_ACCESS_MASK)
#define SK_STORAGE_CREATE_FLAG_MASK (BPF_F_NO_PREALLOC | BPF_F_CLONE)

/* BPF_LOCAL_STORAGE_MAX_VALUE_SIZE of Linux 6.18 (U16_MAX less an element's header). */
#define LOCAL_STORAGE_MAX_VALUE_SIZE 65407
/* PCPU_MIN_UNIT_SIZE: a per-CPU cgroup storage value's limit. */
#define PERCPU_STORAGE_MAX_VALUE_SIZE 32768
/* MAX_BPF_STACK: a sockhash key must fit a program's stack. */
#define SOCKHASH_MAX_KEY_SIZE 512

static int einval(const struct nb_map *attr, struct nb_log *log, const char *what)
{
	nb_log_printf(log, "map %s: %s maps need %s\n", attr->name, attr->ops->name, what);
	return -EINVAL;
}

/* Values of 4 or 8 bytes: a socket fd, or (8) the socket cookie a lookup returns. */
static bool fd_or_cookie(u32 value_size)
{
	return value_size == sizeof(u32) || value_size == sizeof(u64);
}

static int map_alloc(const struct nb_map *attr, struct nb_map **mapp, struct nb_log *log)
{
	struct nb_map *map = calloc(1, sizeof(*map));

	if (!map)
		return -ENOMEM;
	nb_map_init_from_attr(map, attr);
	*mapp = map;
	return 0;
}

static void map_free(struct nb_map *map)
{
	free(map);
}

/* Programs find no element. */
static void *lookup_nothing(struct nb_map *map, const void *key)
{
	return NULL;
}

/*
 * What the kernel's sockfd_lookup answers for fd, in this process's own fd table: EBADF where
 * nothing is open, ENOTSOCK for a file that is no socket; a socket it would take, netbpf
 * cannot (it has no sockets): EOPNOTSUPP, as for a socket the kernel finds unsuitable.
 */
static int socket_fd_err(s64 fd)
{
	struct stat st;

	if (fd < 0 || fd > INT32_MAX || fstat((int)fd, &st))
		return -EBADF;
	return S_ISSOCK(st.st_mode) ? -EOPNOTSUPP : -ENOTSOCK;
}

/* The socket fd of a sockmap or sockhash update (sock_map_update_elem_sys). */
static int socket_fd_update(const struct nb_map *map, const void *value)
{
	u64 fd = map->value_size == sizeof(u64) ? *(const u64 *)value : *(const u32 *)value;

	return fd > INT32_MAX ? -EINVAL : socket_fd_err((s64)fd);
}

/* A socket map's userspace lookup reads the socket's cookie: only 8-byte values hold one. */
static int sock_lookup_sys(struct nb_map *map, const void *key, void *value)
{
	return map->value_size != sizeof(u64) ? -ENOSPC : -ENOENT;
}

/* sockmap */

static int sock_map_alloc_check(const struct nb_map *attr, struct nb_log *log)
{
	if (!attr->max_entries || attr->key_size != sizeof(u32) ||
	    !fd_or_cookie(attr->value_size) || (attr->map_flags & ~SOCK_CREATE_FLAG_MASK))
		return einval(attr, log, "max_entries > 0, 4-byte keys, 4- or 8-byte values and "
			      "no flags but BPF_F_NUMA_NODE, BPF_F_RDONLY, BPF_F_WRONLY");
	return 0;
}

static int sock_map_update_sys(struct nb_map *map, const void *key, const void *value,
			       u64 flags)
{
	return socket_fd_update(map, value);
}

/*
 * A program's update passes a socket pointer, which the verifier lets in only non-NULL: the
 * only socket netbpf has is a test run's, of no protocol, which a socket map cannot hold (the
 * kernel's answer for that socket).
 */
static long sock_map_update_prog(struct nb_map *map, const void *key, const void *value,
				 u64 flags)
{
	return -EOPNOTSUPP;
}

/* An empty slot, in range or not, is EINVAL (__sock_map_delete). */
static long sock_map_delete(struct nb_map *map, const void *key)
{
	return -EINVAL;
}

static const struct nb_map_ops sock_map_ops = {
	.type = BPF_MAP_TYPE_SOCKMAP,
	.name = "sockmap",
	.absent_objects = "sockets",
	.map_alloc_check = sock_map_alloc_check,
	.map_alloc = map_alloc,
	.map_free = map_free,
	.map_lookup_elem = lookup_nothing,
	.map_update_elem = sock_map_update_prog,
	.map_delete_elem = sock_map_delete,
	.map_get_next_key = nb_array_map_get_next_key,
	.map_lookup_elem_sys = sock_lookup_sys,
	.map_update_elem_sys = sock_map_update_sys,
	.map_meta_equal = nb_map_meta_equal,
};
NB_MAP_TYPE_REGISTER(sock_map_ops)

/* sockhash */

static int sock_hash_alloc_check(const struct nb_map *attr, struct nb_log *log)
{
	if (!attr->max_entries || !attr->key_size || !fd_or_cookie(attr->value_size) ||
	    (attr->map_flags & ~SOCK_CREATE_FLAG_MASK))
		return einval(attr, log, "max_entries > 0, a key, 4- or 8-byte values and no "
			      "flags but BPF_F_NUMA_NODE, BPF_F_RDONLY, BPF_F_WRONLY");
	if (attr->key_size > SOCKHASH_MAX_KEY_SIZE) {
		nb_log_printf(log, "map %s: key_size %u is more than the %u bytes of a program's "
			      "stack\n", attr->name, attr->key_size, SOCKHASH_MAX_KEY_SIZE);
		return -E2BIG;
	}
	return 0;
}

static long sock_hash_delete(struct nb_map *map, const void *key)
{
	return -ENOENT;
}

static int no_next_key(struct nb_map *map, const void *key, void *next_key)
{
	return -ENOENT;
}

static const struct nb_map_ops sock_hash_ops = {
	.type = BPF_MAP_TYPE_SOCKHASH,
	.name = "sockhash",
	.absent_objects = "sockets",
	.map_alloc_check = sock_hash_alloc_check,
	.map_alloc = map_alloc,
	.map_free = map_free,
	.map_lookup_elem = lookup_nothing,
	.map_update_elem = sock_map_update_prog,
	.map_delete_elem = sock_hash_delete,
	.map_get_next_key = no_next_key,
	.map_lookup_elem_sys = sock_lookup_sys,
	.map_update_elem_sys = sock_map_update_sys,
	.map_meta_equal = nb_map_meta_equal,
};
NB_MAP_TYPE_REGISTER(sock_hash_ops)

/* reuseport_sockarray */

static int reuseport_array_alloc_check(const struct nb_map *attr, struct nb_log *log)
{
	if (!fd_or_cookie(attr->value_size))
		return einval(attr, log, "4- or 8-byte values");
	return nb_array_map_alloc_check(attr, log);
}

/* Only the 8-byte value is range-checked; a 4-byte one is an int fd, negative or not. */
static int reuseport_array_update_sys(struct nb_map *map, const void *key, const void *value,
				      u64 flags)
{
	if (flags > BPF_EXIST)
		return -EINVAL;
	if (*(const u32 *)key >= map->max_entries)
		return -E2BIG;
	if (map->value_size == sizeof(u64))
		return *(const u64 *)value > INT32_MAX ? -EINVAL :
		       socket_fd_err((s64)*(const u64 *)value);
	return socket_fd_err(*(const s32 *)value);
}

/* Deleting from an array whose slots never hold anything: past the end, or nothing there. */
static long empty_array_delete(struct nb_map *map, const void *key)
{
	return *(const u32 *)key >= map->max_entries ? -E2BIG : -ENOENT;
}

static const struct nb_map_ops reuseport_array_ops = {
	.type = BPF_MAP_TYPE_REUSEPORT_SOCKARRAY,
	.name = "reuseport_sockarray",
	.absent_objects = "sockets",
	.map_alloc_check = reuseport_array_alloc_check,
	.map_alloc = map_alloc,
	.map_free = map_free,
	.map_lookup_elem = lookup_nothing,
	.map_delete_elem = empty_array_delete,
	.map_get_next_key = nb_array_map_get_next_key,
	.map_lookup_elem_sys = sock_lookup_sys,
	.map_update_elem_sys = reuseport_array_update_sys,
	.map_meta_equal = nb_map_meta_equal,
};
NB_MAP_TYPE_REGISTER(reuseport_array_ops)

/* sk_storage: keyed by a socket fd, which names nothing here. */

static int sk_storage_alloc_check(const struct nb_map *attr, struct nb_log *log)
{
	if ((attr->map_flags & ~SK_STORAGE_CREATE_FLAG_MASK) ||
	    !(attr->map_flags & BPF_F_NO_PREALLOC) || attr->max_entries ||
	    attr->key_size != sizeof(int) || !attr->value_size)
		return einval(attr, log, "BPF_F_NO_PREALLOC (BPF_F_CLONE the only other flag), "
			      "max_entries 0, 4-byte keys (socket fds) and a value");
	if (attr->value_size > LOCAL_STORAGE_MAX_VALUE_SIZE) {
		nb_log_printf(log, "map %s: value_size %u is more than local storage's %u\n",
			      attr->name, attr->value_size, LOCAL_STORAGE_MAX_VALUE_SIZE);
		return -E2BIG;
	}
	return 0;
}

static int sk_storage_lookup_sys(struct nb_map *map, const void *key, void *value)
{
	return socket_fd_err(*(const s32 *)key);
}

static int sk_storage_update_sys(struct nb_map *map, const void *key, const void *value,
				 u64 flags)
{
	return socket_fd_err(*(const s32 *)key);
}

static long sk_storage_delete(struct nb_map *map, const void *key)
{
	return socket_fd_err(*(const s32 *)key);
}

static const struct nb_map_ops sk_storage_ops = {
	.type = BPF_MAP_TYPE_SK_STORAGE,
	.name = "sk_storage",
	.absent_objects = "sockets",
	.map_alloc_check = sk_storage_alloc_check,
	.map_alloc = map_alloc,
	.map_free = map_free,
	.map_delete_elem = sk_storage_delete,
	.map_lookup_elem_sys = sk_storage_lookup_sys,
	.map_update_elem_sys = sk_storage_update_sys,
	.map_meta_equal = nb_map_meta_equal,
};
NB_MAP_TYPE_REGISTER(sk_storage_ops)

/* cgroup_array: cgroup fds in, bpf_skb_under_cgroup and current_task_under_cgroup read it. */

static int cgroup_array_update_sys(struct nb_map *map, const void *key, const void *value,
				   u64 flags)
{
	if (flags != BPF_ANY)
		return -EINVAL;
	if (*(const u32 *)key >= map->max_entries)
		return -E2BIG;
	return -EBADF;
}

/*
 * No lookup at all, as the kernel has none for it: the helpers read the slots. Userspace
 * lookups are EOPNOTSUPP (the kernel's ENOTSUPP).
 */
static const struct nb_map_ops cgroup_array_ops = {
	.type = BPF_MAP_TYPE_CGROUP_ARRAY,
	.name = "cgroup_array",
	.absent_objects = "cgroups",
	.map_alloc_check = nb_fd_array_map_alloc_check,
	.map_alloc = map_alloc,
	.map_free = map_free,
	.map_delete_elem = empty_array_delete,
	.map_get_next_key = nb_array_map_get_next_key,
	.map_update_elem_sys = cgroup_array_update_sys,
	.map_meta_equal = nb_map_meta_equal,
};
NB_MAP_TYPE_REGISTER(cgroup_array_ops)

/* cgroup_storage: one value per cgroup a program is attached to; none here. */

static int cgroup_storage_alloc_check(const struct nb_map *attr, struct nb_log *log)
{
	u32 max_value = attr->ops->percpu ? PERCPU_STORAGE_MAX_VALUE_SIZE :
					    LOCAL_STORAGE_MAX_VALUE_SIZE;

	if (attr->key_size != sizeof(struct bpf_cgroup_storage_key) &&
	    attr->key_size != sizeof(u64))
		return einval(attr, log, "keys of struct bpf_cgroup_storage_key or a u64");
	if (!attr->value_size)
		return einval(attr, log, "a value");
	if (attr->value_size > max_value) {
		nb_log_printf(log, "map %s: value_size %u is more than the %u a %s value takes\n",
			      attr->name, attr->value_size, max_value, attr->ops->name);
		return -E2BIG;
	}
	if ((attr->map_flags & ~CGROUP_STORAGE_CREATE_FLAG_MASK) ||
	    ((attr->map_flags & BPF_F_RDONLY_PROG) && (attr->map_flags & BPF_F_WRONLY_PROG)))
		return einval(attr, log, "no flags but BPF_F_NUMA_NODE and the access flags");
	if (attr->max_entries)
		return einval(attr, log, "max_entries 0 (the kernel sizes them by attachment)");
	return 0;
}

static int cgroup_storage_lookup_sys(struct nb_map *map, const void *key, void *value)
{
	return -ENOENT;
}

static int cgroup_storage_update_sys(struct nb_map *map, const void *key, const void *value,
				     u64 flags)
{
	if (flags & ~(u64)(BPF_F_LOCK | BPF_EXIST))
		return -EINVAL;
	return -ENOENT;
}

static long cgroup_storage_delete(struct nb_map *map, const void *key)
{
	return -EINVAL;
}

#define CGROUP_STORAGE_OPS(ops, map_type, map_name, is_percpu)                               \
	static const struct nb_map_ops ops = {                                              \
		.type = map_type,                                                           \
		.name = map_name,                                                           \
		.percpu = is_percpu,                                                        \
		.absent_objects = "cgroups",                                                \
		.map_alloc_check = cgroup_storage_alloc_check,                              \
		.map_alloc = map_alloc,                                                     \
		.map_free = map_free,                                                       \
		.map_delete_elem = cgroup_storage_delete,                                   \
		.map_get_next_key = no_next_key,                                            \
		.map_lookup_elem_sys = cgroup_storage_lookup_sys,                           \
		.map_update_elem_sys = cgroup_storage_update_sys,                           \
	};                                                                                  \
	NB_MAP_TYPE_REGISTER(ops)

CGROUP_STORAGE_OPS(cgroup_storage_ops, BPF_MAP_TYPE_CGROUP_STORAGE, "cgroup_storage", false)
CGROUP_STORAGE_OPS(percpu_cgroup_storage_ops, BPF_MAP_TYPE_PERCPU_CGROUP_STORAGE,
		   "percpu_cgroup_storage", true)
