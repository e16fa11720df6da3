#!/usr/bin/env python3
# Writes tests/data/hostile.pcap: frames no program should be able to hurt the host with,
# for tests/unit/test_hostile.c and tests/cli/hostile.sh. Sizes 0, 1, 13, 14 and 15, the
# MTU and one beyond it, the largest packet and one beyond it, 9000; truncated and malformed
# IPv4, IPv6, VLAN, QinQ, TCP, UDP and ICMP headers; IP options and fragments; IPv6
# extension headers; random bytes. Deterministic: run it again and the file is the same.
#
#   python3 tests/data/make_hostile.py tests/data/hostile.pcap
import random
import struct
import sys

DST = bytes.fromhex("020000000002")
SRC = bytes.fromhex("020000000001")


def eth(ethertype, payload=b""):
    return DST + SRC + struct.pack("!H", ethertype) + payload


def csum(data):
    if len(data) % 2:
        data += b"\0"
    s = sum(struct.unpack("!%dH" % (len(data) // 2), data))
    while s >> 16:
        s = (s & 0xFFFF) + (s >> 16)
    return ~s & 0xFFFF


def ipv4(proto, payload, ihl=5, tot_len=None, frag=0, options=b"", ttl=64):
    tot = tot_len if tot_len is not None else ihl * 4 + len(payload)
    hdr = struct.pack("!BBHHHBBH4s4s", 0x40 | (ihl & 0xF), 0, tot & 0xFFFF, 1, frag, ttl,
                      proto, 0, bytes([10, 0, 0, 1]), bytes([10, 0, 0, 2]))
    hdr += options
    hdr = hdr[:10] + struct.pack("!H", csum(hdr[:20])) + hdr[12:]
    return hdr + payload


def ipv6(nexthdr, payload, plen=None):
    pl = plen if plen is not None else len(payload)
    return (struct.pack("!IHBB", 0x60000000, pl & 0xFFFF, nexthdr, 64) +
            bytes(15) + b"\1" + bytes(15) + b"\2" + payload)


def tcp(doff=5, payload=b"", flags=0x18):
    hdr = struct.pack("!HHIIBBHHH", 40000, 80, 1, 0, doff << 4, flags, 512, 0, 0)
    return hdr + bytes(max(0, doff * 4 - 20)) + payload


def udp(length=None, payload=b"x" * 8):
    ln = length if length is not None else 8 + len(payload)
    return struct.pack("!HHHH", 5000, 53, ln & 0xFFFF, 0) + payload


def icmp(payload=b"ping"):
    return struct.pack("!BBHHH", 8, 0, 0, 1, 1) + payload


def vlan(tci, ethertype, payload):
    return struct.pack("!HH", tci, ethertype) + payload


def pad(frame, length):
    return frame[:length] + bytes(max(0, length - len(frame)))


def frames():
    rnd = random.Random(20)
    tcp_ok = eth(0x0800, ipv4(6, tcp(payload=b"hello")))
    out = [
        b"", b"\x02", eth(0x0800)[:13], eth(0x0800), eth(0x0800, b"\x45"),
        tcp_ok,
        # IPv4 header fields that lie
        eth(0x0800, ipv4(6, tcp(), ihl=4)),
        eth(0x0800, ipv4(6, tcp(), ihl=15)),
        eth(0x0800, ipv4(17, udp(), ihl=15, options=bytes([7, 39, 4]) + bytes(37))),
        eth(0x0800, ipv4(17, udp(), ihl=6, options=bytes([0x94, 4, 0, 0]))),
        eth(0x0800, ipv4(6, tcp(), tot_len=0)),
        eth(0x0800, ipv4(6, tcp(), tot_len=65535)),
        eth(0x0800, ipv4(6, tcp(), tot_len=19)),
        eth(0x0800, ipv4(6, tcp())[:19]),
        # fragments: first, middle, tiny overlapping
        eth(0x0800, ipv4(6, tcp(payload=b"x" * 40), frag=0x2000)),
        eth(0x0800, ipv4(6, b"y" * 40, frag=0x2000 | 185)),
        eth(0x0800, ipv4(6, b"z" * 8, frag=1)),
        eth(0x0800, ipv4(17, b"", frag=0x2000)),
        # TCP, UDP, ICMP headers short or lying
        eth(0x0800, ipv4(6, tcp(doff=0))),
        eth(0x0800, ipv4(6, tcp(doff=15))),
        eth(0x0800, ipv4(6, tcp()[:7])),
        eth(0x0800, ipv4(17, udp(length=0))),
        eth(0x0800, ipv4(17, udp(length=7))),
        eth(0x0800, ipv4(17, udp(length=60000))),
        eth(0x0800, ipv4(17, udp()[:3])),
        eth(0x0800, ipv4(1, icmp())),
        eth(0x0800, ipv4(1, b"\x08")),
        eth(0x0800, ipv4(4, ipv4(6, tcp())[:12])),		# IPIP, inner cut
        # IPv6
        eth(0x86DD, ipv6(6, tcp())[:20]),
        eth(0x86DD, ipv6(6, tcp(), plen=60000)),
        eth(0x86DD, ipv6(0, bytes([6, 255]) + bytes(6) + tcp())),	# hop-by-hop claims 2 KiB
        eth(0x86DD, ipv6(44, bytes([6, 0, 0, 1]) + bytes(4) + tcp())),	# fragment header
        eth(0x86DD, ipv6(44, bytes([17, 0]))),				# fragment header cut
        eth(0x86DD, ipv6(59, b"")),
        eth(0x86DD, ipv6(58, b"\x80")),
        eth(0x86DD, ipv6(17, udp())),
        # VLAN and QinQ
        eth(0x8100, vlan(100, 0x0800, ipv4(6, tcp()))),
        eth(0x8100, vlan(100, 0x0800, b"")),
        eth(0x8100)[:15],
        eth(0x8100, b"\x00"),
        eth(0x88A8, vlan(10, 0x8100, vlan(20, 0x0800, ipv4(17, udp())))),
        eth(0x88A8, vlan(10, 0x8100, b"\x00\x14")),
        eth(0x88A8, vlan(1, 0x88A8, vlan(2, 0x8100, vlan(3, 0x86DD, ipv6(6, tcp()))))),
        eth(0x8100, vlan(4095, 0x8100, vlan(4095, 0x8100, b""))),
        # other ethertypes
        eth(0x0806, b"\x00\x01\x08\x00"),
        eth(0x0040, b"802.3 length field"),
        eth(0xFFFF, bytes(range(64))),
        b"\xff" * 64,
        # sizes around the limits: the MTU, the largest packet (3520), jumbo
        pad(tcp_ok, 1514), pad(tcp_ok, 1515), pad(tcp_ok, 1518),
        pad(tcp_ok, 3520), pad(tcp_ok, 3521), pad(tcp_ok, 9000),
    ]
    for _ in range(16):
        out.append(bytes(rnd.randrange(256) for _ in range(rnd.randrange(1, 200))))
    for _ in range(8):
        f = bytearray(tcp_ok + bytes(40))
        for _ in range(4):
            f[rnd.randrange(12, len(f))] = rnd.randrange(256)
        out.append(bytes(f))
    return out


def main():
    path = sys.argv[1] if len(sys.argv) > 1 else "tests/data/hostile.pcap"
    with open(path, "wb") as f:
        f.write(struct.pack("<IHHiIII", 0xA1B2C3D4, 2, 4, 0, 0, 65535, 1))
        for i, frame in enumerate(frames()):
            f.write(struct.pack("<IIII", 1000 + i, 0, len(frame), len(frame)))
            f.write(frame)


if __name__ == "__main__":
    main()
