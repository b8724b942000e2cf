#!/usr/bin/env bash
# The hostile-clients benchmark: one well-behaved client beside heap bombs, fragment pinners,
# never-reading clients, request floods and 1,000 slowloris connections, I-RMI and stock JacORB side by
# side in interleaved trials; writes results/hostile-clients.md, or with --update-docs the documentation page
# docs/benchmarks/hostile-clients.md.
#   scripts/hostile-bench.sh [--trials N] [--quiet S] [--hostile S] [--out FILE | --update-docs]
# JAVA_OPTS passes options to the benchmark JVM. HOSTILE_SERVER_OPTIONS passes JVM options to the servers under test,
# several separated by spaces, e.g.
#   HOSTILE_SERVER_OPTIONS='-Dirmi.transport.max_requests_in_flight=1 -Dirmi.transport.adapt_requests_in_flight=false'
# (the same as -Dirmi.hostile.serverOptions=..., which JAVA_OPTS cannot carry when it has spaces).
# CPU-heavy: runs under flock /tmp/irmi-team/cpu.lock when /tmp/irmi-team exists, so benchmarks on a shared machine take turns. Needs about 2,100 file descriptors.
set -euo pipefail
cd "$(dirname "$0")/.."
LOCK=/tmp/irmi-team/cpu.lock
run_locked() { if [ -d /tmp/irmi-team ]; then flock "$LOCK" "$@"; else "$@"; fi; }
ulimit -n 8192 2>/dev/null || true
# Built in the reactor (-am), never installed: the class path then names this tree's target/classes
# of every I-RMI module, not the jars of ~/.m2, so the benchmark runs the code of this working tree.
run_locked mvn -B -q -o test-compile dependency:build-classpath -pl irmi-orb -am -Dmdep.outputFile=target/test-classpath.txt \
  -Dmdep.includeScope=test >/dev/null
cp="irmi-orb/target/test-classes:irmi-orb/target/classes:$(cat irmi-orb/target/test-classpath.txt)"
server_opts=()
if [ -n "${HOSTILE_SERVER_OPTIONS:-}" ]; then server_opts=("-Dirmi.hostile.serverOptions=$HOSTILE_SERVER_OPTIONS"); fi
run_locked java -Xmx1g ${JAVA_OPTS:-} "${server_opts[@]}" -cp "$cp" org.irmi.orb.HostileClientsBenchmark "$@"
