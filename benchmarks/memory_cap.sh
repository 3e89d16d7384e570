#!/usr/bin/env bash
# Run a command under an operating-system memory cap and print the cap, the group's peak and how often it hit the cap:
#   bash benchmarks/memory_cap.sh 2G python benchmarks/bounded_memory.py data /tmp/capped --memory-gib 2 --precision float32
# cgroup v1 (as root): a child of this shell's memory group with memory.limit_in_bytes; cgroup v2: systemd-run --scope.
# The group counts the page cache of the files the command reads and writes; the kernel reclaims it before it would
# stop the command, so the peak reads as "the cap was reached", failcnt as how often reclaim ran.
set -uo pipefail
cap=$1; shift
v1=$(awk -F: '$2 == "memory" { print $3 }' /proc/self/cgroup)
if [ -n "$v1" ] && [ -d "/sys/fs/cgroup/memory$v1" ]; then
    g="/sys/fs/cgroup/memory${v1%/}/sentemb-cap-$$"
    mkdir "$g" || exit 1
    trap 'rmdir "$g" 2>/dev/null' EXIT
    echo "$cap" > "$g/memory.limit_in_bytes"
    echo 0 > "$g/memory.swappiness" 2>/dev/null
    t0=$(date +%s)
    sh -c 'echo $$ > "$1/cgroup.procs" && shift && exec "$@"' sh "$g" "$@"
    rc=$?
    echo "memory cap: rc $rc, $(( $(date +%s) - t0 )) s, cap $(cat "$g/memory.limit_in_bytes") bytes," \
         "peak $(cat "$g/memory.max_usage_in_bytes") bytes, failcnt $(cat "$g/memory.failcnt")" >&2
    exit $rc
fi
exec systemd-run --scope --quiet -p MemoryMax="$cap" -p MemorySwapMax=0 "$@"
