// SPDX-License-Identifier: GPL-2.0
/* The per-worker redirect info (see redirect.h). */
#include "net/redirect.h"

__thread struct nb_redirect_info nb_this_redirect_info;
