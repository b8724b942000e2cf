#!/bin/bash
# Compares stock JacORB, I-RMI with its hand-off queue (default) and I-RMI with inline dispatch
# (irmi.transport.dispatch_threads=0) on the echo benchmark's server and omniORB C++ load client
# (owned by daytrader-bench/echo; build it first: mvn -B -q -pl daytrader-bench/echo install).
# 100 B echo, 1 and 16 connections, 3 interleaved rounds (PAYLOAD, CONNS, VARIANTS override). On a shared machine, run it
# under a lock that other benchmarks take too, e.g.:
#   flock /tmp/irmi-team/cpu.lock irmi-orb/bench/handoff-bench.sh
set -u
PAYLOAD=${PAYLOAD:-100}
CONNS=${CONNS:-"1 16"}
VARIANTS=${VARIANTS:-"jacorb| irmi| irmi|-Dirmi.transport.dispatch_threads=0"}
cd "$(dirname "$0")/../../daytrader-bench/echo"
CP=target/classes:$(cat target/classpath.txt)
IOR=$(mktemp)
echo "start: $(uptime)"
for round in 1 2 3; do
  for v in $VARIANTS; do
    orb=${v%%|*}; extra=${v#*|}; extra=${extra//,/ }; : > "$IOR"
    java $extra -cp "$CP" org.irmi.bench.echo.EchoServer --orb "$orb" --ior-file "$IOR" > /dev/null 2>&1 & SP=$!
    for i in $(seq 100); do [ -s "$IOR" ] && break; sleep 0.1; done
    for c in $CONNS; do
      echo "$orb $extra c=$c: $(timeout 30 target/native/echo_load_client -ior-file "$IOR" -connections $c \
        -payload "$PAYLOAD" -warmup-ms 1000 -duration-ms 4000 2>&1 | grep ECHO-LOAD \
        | grep -o 'calls_per_sec=[0-9.]* p50_us=[0-9.]* p90_us=[0-9.]* p99_us=[0-9.]*')"
    done
    kill $SP 2>/dev/null; wait $SP 2>/dev/null
  done
done
echo "end: $(uptime)"
rm -f "$IOR"
