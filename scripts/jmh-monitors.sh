#!/usr/bin/env bash
# The cost of watching: JMH benchmark of the monitors' record and snapshot paths.
#
#   scripts/jmh-monitors.sh            # 1 and 2 threads, short runs (~4 minutes on 2 cores)
#   scripts/jmh-monitors.sh -t 1 ...   # any extra arguments go to JMH (then only one run)
#
# Figures and the machine they came from are written to docs/monitors.md by hand; this script
# prints JMH's table and keeps the raw results in monitors/target/jmh-*.txt.
set -euo pipefail
cd "$(dirname "$0")/.."
mvn -B -q -o -pl monitors test-compile
mvn -B -q -o -pl monitors dependency:build-classpath -Dmdep.outputFile=target/jmh-classpath.txt -Dmdep.includeScope=test
CP="monitors/target/test-classes:monitors/target/classes:$(cat monitors/target/jmh-classpath.txt)"
JMH_COMMON=(-f 1 -wi 2 -w 1s -i 3 -r 1s -jvmArgs "-Xms512m -Xmx512m")
if [[ $# -gt 0 ]]; then
  exec java -cp "$CP" org.openjdk.jmh.Main "WindowBenchmark" "${JMH_COMMON[@]}" "$@"
fi
summarise() {  # min and median of the measurement iterations, per benchmark
  awk '/^# Benchmark:/ { name=$3; sub(/.*\./,"",name); n=0 }
       /^Iteration/ { v[++n]=$3+0 }
       /^Result/ { asort(v); med = (n%2) ? v[(n+1)/2] : (v[n/2]+v[n/2+1])/2;
                   printf "%-28s min %10.1f  median %10.1f ns/op\n", name, v[1], med; delete v }' "$1"
}
echo "== load before: $(cut -d' ' -f1-3 /proc/loadavg) on $(nproc) cores =="
for threads in 1 2; do
  echo "== JMH, $threads thread(s): wall-clock ns/op =="
  java -cp "$CP" org.openjdk.jmh.Main "WindowBenchmark" "${JMH_COMMON[@]}" -t "$threads" > "monitors/target/jmh-${threads}t.txt"
  sed -n '/^Benchmark/,$p' "monitors/target/jmh-${threads}t.txt"
  summarise "monitors/target/jmh-${threads}t.txt"
done
echo "== CPU time per operation (robust to other processes using the cores) =="
java -Xms512m -Xmx512m -cp "$CP" org.irmi.monitors.bench.CpuCostMain 1 2 | tee monitors/target/cpu-cost.txt
echo "== load after: $(cut -d' ' -f1-3 /proc/loadavg) =="
