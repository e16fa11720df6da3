// SPDX-License-Identifier: GPL-2.0
/*
 * The pin registry, netbpf's bpffs: a path names a map that every object loaded into this
 * process may share, as /sys/fs/bpf/tc/globals/NAME does for tc. A second object whose
 * definition of a pinned map differs is refused, with the attribute that differs, as iproute2's
 * bpf_map_selfcheck_pinned does.
 */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bpf/map.h"
#include "bpf/object.h"

struct pin {
	struct pin *next;
	char *path;
	struct nb_map *map;
};

static pthread_mutex_t pins_lock = PTHREAD_MUTEX_INITIALIZER;
static struct pin *pins;

static struct pin **find(const char *path)
{
	struct pin **pp;

	for (pp = &pins; *pp; pp = &(*pp)->next)
		if (!strcmp((*pp)->path, path))
			return pp;
	return NULL;
}

int nb_pin_map(const char *path, struct nb_map *map)
{
	struct pin *p;
	int err = 0;

	pthread_mutex_lock(&pins_lock);
	if (find(path)) {
		err = -EEXIST;
		goto out;
	}
	p = calloc(1, sizeof(*p));
	if (p)
		p->path = strdup(path);
	if (!p || !p->path) {
		free(p);
		err = -ENOMEM;
		goto out;
	}
	p->map = nb_map_get_uref(map);
	p->next = pins;
	pins = p;
out:
	pthread_mutex_unlock(&pins_lock);
	return err;
}

struct nb_map *nb_pin_get_map(const char *path)
{
	struct nb_map *map = NULL;
	struct pin **pp;

	pthread_mutex_lock(&pins_lock);
	pp = find(path);
	if (pp)
		map = nb_map_get((*pp)->map);
	pthread_mutex_unlock(&pins_lock);
	return map;
}

int nb_pin_get_path(const struct nb_map *map, char *buf, size_t size)
{
	int err = -ENOENT;

	pthread_mutex_lock(&pins_lock);
	for (struct pin *p = pins; p; p = p->next) {
		if (p->map != map)
			continue;
		err = snprintf(buf, size, "%s", p->path) < (int)size ? 0 : -ENAMETOOLONG;
		break;
	}
	pthread_mutex_unlock(&pins_lock);
	return err;
}

static void pin_free(struct pin *p)
{
	nb_map_put_uref(p->map);
	free(p->path);
	free(p);
}

int nb_unpin(const char *path)
{
	struct pin **pp, *p = NULL;

	pthread_mutex_lock(&pins_lock);
	pp = find(path);
	if (pp) {
		p = *pp;
		*pp = p->next;
	}
	pthread_mutex_unlock(&pins_lock);
	if (!p)
		return -ENOENT;
	pin_free(p);
	return 0;
}

void nb_unpin_all(void)
{
	struct pin *list;

	pthread_mutex_lock(&pins_lock);
	list = pins;
	pins = NULL;
	pthread_mutex_unlock(&pins_lock);
	while (list) {
		struct pin *next = list->next;

		pin_free(list);
		list = next;
	}
}

int nb_pin_reuse_check(const struct nb_object *obj, const struct nb_object_map *m,
		       struct nb_map *pinned)
{
	static const char *const fields[] = {
		"type", "key_size", "value_size", "max_entries", "map_flags",
	};
	const u32 mine[] = { m->type, m->key_size, m->value_size, m->max_entries, m->map_flags };
	const u32 theirs[] = { pinned->map_type, pinned->key_size, pinned->value_size,
			       pinned->max_entries, pinned->map_flags };

	for (size_t i = 0; i < ARRAY_SIZE(fields); i++) {
		if (mine[i] == theirs[i])
			continue;
		nb_obj_err(obj, "section %s: map %s: differs from the map pinned at %s: %s %u "
			   "(object) != %u (pinned)", obj->secs[m->sec].name, m->name,
			   m->pin_path, fields[i], mine[i], theirs[i]);
		return -EINVAL;
	}
	return 0;
}
