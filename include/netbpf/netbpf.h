/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The whole public API of libnetbpf, one header per concept:
 *
 *   log.h         the error and verifier log every fallible call fills
 *   opts.h        the rules of the options structs, NB_OPTS to declare one
 *   object.h      ELF objects as tc, ip and libbpf load them
 *   prog.h        programs: load (verify, JIT), run, query
 *   map.h         maps from userspace; ringbuf.h, perf_event.h their consumers
 *   btf.h         BTF objects
 *   test_run.h    one run of a program on given bytes (BPF_PROG_TEST_RUN)
 *   dev.h         devices and the ports that move their frames
 *   port.h        port backends: the ops an embedder implements for its own
 *   pkt.h         packets as ports make and take them; pcap.h pcap files read and written
 *   tc.h          clsact and ingress qdiscs, filters, actions
 *   datapath.h    the worker threads that run devices' queues
 *   worker.h      the datapath run on a thread of the embedder's own instead
 *   percpu.h      the number of workers, the "CPUs" of per-CPU maps
 *   inet.h, route.h, neigh.h, tunnel.h    the IP layer, its routes, neighbours and tunnels
 *   xdp.h         a device's XDP program and its counters
 *   xsk.h         XDP sockets, the destinations of an XSKMAP
 *   epoch.h       grace periods: when retired elements and programs are freed
 *   disasm.h      instructions as text; helpers.h which helpers each program type has
 *   clock.h       time as programs see it; trace.h where bpf_trace_printk writes
 *
 * Build with `pkg-config --cflags --libs netbpf` (examples/embed/ is a program that does).
 */
#ifndef NETBPF_NETBPF_H
#define NETBPF_NETBPF_H

#include <netbpf/btf.h>
#include <netbpf/clock.h>
#include <netbpf/datapath.h>
#include <netbpf/dev.h>
#include <netbpf/disasm.h>
#include <netbpf/epoch.h>
#include <netbpf/helpers.h>
#include <netbpf/inet.h>
#include <netbpf/log.h>
#include <netbpf/map.h>
#include <netbpf/neigh.h>
#include <netbpf/object.h>
#include <netbpf/opts.h>
#include <netbpf/pcap.h>
#include <netbpf/percpu.h>
#include <netbpf/perf_event.h>
#include <netbpf/pkt.h>
#include <netbpf/port.h>
#include <netbpf/prog.h>
#include <netbpf/ringbuf.h>
#include <netbpf/route.h>
#include <netbpf/tc.h>
#include <netbpf/test_run.h>
#include <netbpf/trace.h>
#include <netbpf/tunnel.h>
#include <netbpf/worker.h>
#include <netbpf/xdp.h>
#include <netbpf/xsk.h>

#endif /* NETBPF_NETBPF_H */
