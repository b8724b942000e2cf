#!/usr/bin/env python3
"""Server CPU time per call: stock JacORB against I-RMI (and I-RMI builds or settings).

Wall-clock throughput means little on a shared, overloaded machine; the CPU time the server
process spends per completed call does not depend much on how many other processes compete.
Each variant's EchoServer (daytrader-bench/echo) runs in its own JVM; all are started at once,
warmed up, then measured in turns with the omniORB C++ load client (echo_load_client). While a
trial runs, the server's utime+stime (/proc/<pid>/stat) is sampled every 20 ms; the CPU rate over
the measured window (after ramp and warm-up, 0.2 s trimmed at both ends) divided by the client's
calls/s is the CPU per call. Medians over the rounds.

Build first: mvn -B -q -pl irmi-orb install -DskipTests && mvn -B -q -pl daytrader-bench/echo install -DskipTests

Usage (from the repository root):
  python3 irmi-orb/bench/cpu-per-call.py [--rounds 3] [--payloads 100,65536] [--conns 1,16,256]
        [--duration-ms 4000] [--warmup-ms 1500]
        [--variant NAME=ORB[,jar=PATH][,-Dkey=value]...]...
  ORB is jacorb or irmi; jar= puts another irmi-orb jar (or classes directory) first on the class
  path (e.g. a copy of an older build); -D options go to the server JVM. Default variants:
  jacorb=jacorb and irmi=irmi (the irmi-orb in ~/.m2).
Figures that go into docs/: run under flock /tmp/irmi-team/bench.lock.
"""
import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import threading
import time

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), '..', '..'))
ECHO = os.path.join(ROOT, 'daytrader-bench', 'echo')
CLIENT = os.path.join(ECHO, 'target', 'native', 'echo_load_client')
TICKS = os.sysconf('SC_CLK_TCK')


def context_switches(pid):
    total = 0
    for task in os.listdir(f'/proc/{pid}/task'):
        try:
            with open(f'/proc/{pid}/task/{task}/status') as f:
                for line in f:
                    if line.startswith(('voluntary_ctxt_switches', 'nonvoluntary_ctxt_switches')):
                        total += int(line.split()[1])
        except OSError:
            pass
    return total


def cpu_seconds(pid):
    with open(f'/proc/{pid}/stat') as f:
        fields = f.read().rsplit(')', 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICKS  # utime, stime


class Server:
    def __init__(self, spec):
        name, rest = spec.split('=', 1)
        parts = rest.split(',')
        self.name, self.orb = name, parts[0]
        jar, props = None, []
        for p in parts[1:]:
            if p.startswith('jar='):
                jar = p[4:]
            elif p.startswith('-D'):
                props.append(p)
            else:
                raise SystemExit(f'bad variant part {p!r} in {spec!r}')
        with open(os.path.join(ECHO, 'target', 'classpath.txt')) as f:
            cp = os.path.join(ECHO, 'target', 'classes') + ':' + f.read().strip()
        if jar:
            cp = os.path.abspath(jar) + ':' + cp
        self.ior = tempfile.mktemp(prefix='irmi-cpu-ior-')
        cmd = ['java', '-Xmx1g', '-XX:+UseG1GC', '-Dorg.slf4j.simpleLogger.defaultLogLevel=warn', *props,
               '-cp', cp, 'org.irmi.bench.echo.EchoServer', '--orb', self.orb, '--ior-file', self.ior]
        self.proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        for _ in range(600):
            if os.path.exists(self.ior) and os.path.getsize(self.ior) > 0:
                break
            time.sleep(0.1)
        else:
            raise SystemExit(f'{name}: server did not write its IOR')
        self.desc = f'{self.orb} {" ".join(props)} {"jar=" + jar if jar else ""}'.strip()

    def stop(self):
        self.proc.kill()
        self.proc.wait()
        os.unlink(self.ior)


def trial(server, conns, payload, warmup_ms, duration_ms):
    period = 0.02 if conns < 256 else 0.1  # reading 1,000 threads' status takes a while
    samples = []
    done = threading.Event()

    def sample():
        while not done.is_set():
            samples.append((time.monotonic(), cpu_seconds(server.proc.pid), context_switches(server.proc.pid)))
            time.sleep(period)

    t = threading.Thread(target=sample)
    t.start()
    start = time.monotonic()
    out = subprocess.run([CLIENT, '-ior-file', server.ior, '-connections', str(conns), '-payload', str(payload),
                          '-warmup-ms', str(warmup_ms), '-duration-ms', str(duration_ms)],
                         capture_output=True, text=True, timeout=180).stdout
    done.set()
    t.join()
    line = next(l for l in out.splitlines() if l.startswith('ECHO-LOAD'))
    kv = dict(x.split('=', 1) for x in line.split()[1:])
    ramp = int(kv['ramp_ms']) / 1000
    w0 = start + ramp + warmup_ms / 1000 + 0.2
    w1 = start + ramp + (warmup_ms + duration_ms) / 1000 - 0.2
    inside = [s for s in samples if w0 <= s[0] <= w1]
    if len(inside) < 2 or float(kv['calls_per_sec']) <= 0:
        return None
    (ta, ca, sa), (tb, cb, sb) = inside[0], inside[-1]
    cpu_rate = (cb - ca) / (tb - ta)  # server cores busy
    cps = float(kv['calls_per_sec'])
    return {'cps': cps, 'cores': cpu_rate, 'us_per_call': cpu_rate / cps * 1e6,
            'cs_per_call': (sb - sa) / (tb - ta) / cps,
            'p50': float(kv['p50_us']), 'errors': int(kv['errors'])}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--rounds', type=int, default=3)
    ap.add_argument('--payloads', default='100,65536')
    ap.add_argument('--conns', default='1,16,256')
    ap.add_argument('--duration-ms', type=int, default=4000)
    ap.add_argument('--warmup-ms', type=int, default=1500)
    ap.add_argument('--variant', action='append')
    a = ap.parse_args()
    specs = a.variant or ['jacorb=jacorb', 'irmi=irmi']
    print('load average at start:', open('/proc/loadavg').read().strip(), flush=True)
    servers = [Server(s) for s in specs]
    try:
        for s in servers:  # JIT warm-up
            trial(s, 16, 100, 0, 6000)
            trial(s, 16, 65536, 0, 3000)
        results = {}
        for payload in map(int, a.payloads.split(',')):
            for conns in map(int, a.conns.split(',')):
                for r in range(a.rounds):
                    order = servers if r % 2 == 0 else list(reversed(servers))
                    for s in order:
                        res = trial(s, conns, payload, a.warmup_ms, a.duration_ms)
                        results.setdefault((payload, conns, s.name), []).append(res)
                        if res:
                            print(f'{s.name:>12} {payload:6d} B x{conns:5d} round {r + 1}: '
                                  f'{res["us_per_call"]:7.1f} us CPU/call  {res["cps"]:9.0f} calls/s  '
                                  f'{res["cs_per_call"]:5.2f} ctx sw/call  {res["cores"]:.2f} cores  p50 {res["p50"]:.0f} us  errors {res["errors"]}',
                                  flush=True)
        print('load average at end:', open('/proc/loadavg').read().strip())
        print()
        print('| payload | conns | ' + ' | '.join(f'{s.name} us CPU/call' for s in servers)
              + ' | ' + ' | '.join(f'{s.name}/{servers[0].name}' for s in servers[1:]) + ' | '
              + ' | '.join(f'{s.name} ctx sw/call' for s in servers) + ' | '
              + ' | '.join(f'{s.name} calls/s' for s in servers) + ' |')
        print('|' + '---:|' * (2 + 3 * len(servers) + len(servers) - 1))
        for payload in map(int, a.payloads.split(',')):
            for conns in map(int, a.conns.split(',')):
                med, cps, css = [], [], []
                for s in servers:
                    rs = [x for x in results.get((payload, conns, s.name), []) if x]
                    med.append(statistics.median(x['us_per_call'] for x in rs) if rs else float('nan'))
                    css.append(statistics.median(x['cs_per_call'] for x in rs) if rs else float('nan'))
                    cps.append(statistics.median(x['cps'] for x in rs) if rs else float('nan'))
                label = '64 KB' if payload == 65536 else f'{payload} B'
                print(f'| {label} | {conns} | ' + ' | '.join(f'{m:.1f}' for m in med) + ' | '
                      + ' | '.join(f'{m / med[0]:.2f}' for m in med[1:]) + ' | '
                      + ' | '.join(f'{c:.2f}' for c in css) + ' | '
                      + ' | '.join(f'{c:,.0f}' for c in cps) + ' |')
        print()
        for s in servers:
            print(f'- {s.name}: {s.desc}')
    finally:
        for s in servers:
            s.stop()


if __name__ == '__main__':
    sys.exit(main())
