/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Registration of the library's kinds (map and program types, classifiers, actions, ports,
 * tunnels, internal functions) when the library is loaded, as the kernel's built-in initcalls.
 * Every kind's file registers itself; the library is linked as one object (libnetbpf.a is
 * prelinked, libnetbpf.so is one module), so a program that uses any of it gets every kind.
 */
#ifndef NB_COMMON_REGISTER_H
#define NB_COMMON_REGISTER_H

/*
 * A registry refused a kind (a name or type registered twice: -EEXIST, or -ENOMEM). As the
 * kernel does for a failing initcall, say so on stderr and go on without it: the library
 * cannot return an error from its loading.
 */
void nb_register_failed(const char *registry, const char *name, int err);

/*
 * Put name at position at of a registry's NULL-terminated array of its kinds' names (*cnt of
 * them), the order the registry keeps its kinds in: 0 or -ENOMEM, the array unchanged.
 */
int nb_register_name_insert(const char ***names, unsigned int *cnt, unsigned int at,
			    const char *name);

/* Run call (a registration returning 0 or a negative errno) when the library is loaded. */
#define NB_REGISTER_AT_LOAD(tag, call, registry, name)                                      \
	static void __attribute__((constructor)) nb_register_##tag(void)                    \
	{                                                                                   \
		int err = (call);                                                           \
                                                                                            \
		if (err)                                                                    \
			nb_register_failed(registry, name, err);                            \
	}

#endif /* NB_COMMON_REGISTER_H */
