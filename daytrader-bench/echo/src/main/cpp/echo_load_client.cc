// Closed-loop echo load client, built with omniORB.
//
//   echo_load_client -ior-file F -connections N -payload BYTES -warmup-ms W -duration-ms D
//                    [-ramp-timeout-ms R] [-hold-until-eof] [-ORB... options passed to omniORB]
//
// N threads each call Echo::echoBytes in a loop on one shared reference; omniORB gives them up to N
// connections (-ORBmaxGIOPConnectionPerServer N, one call per connection). Phases:
//   ramp    until every thread has completed one call (all N connections open), at most R ms;
//   warm-up W ms, not recorded;
//   measure D ms: every call's latency goes into the calling thread's log-linear histogram.
// It prints "ECHO-MEASURE start" and "ECHO-MEASURE end" as the measurement begins and ends.
// At the end it prints two machine-readable lines on stdout:
//   ECHO-LOAD key=value ...          (calls, calls_per_sec, p50_us, p99_us, ...)
//   ECHO-HIST value_ns:count,...     (the merged histogram, each bucket by its midpoint)
// Calls time out after 30 s (-ORBclientCallTimeOutPeriod); callers still waiting 10 s after the
// end are reported as stuck=K and abandoned, so a run always ends.
// With -hold-until-eof it keeps its connections open after printing those lines until its stdin
// reaches end of file, so whoever runs it can count the server's connections at a moment when they
// certainly exist (the parent closes stdin, or dies, to let it go).
// Exit code 0 on a completed run (errors are counted in the result), 2 on bad arguments,
// 3 when the server cannot be reached at all.
#include <omniORB4/CORBA.h>

#include <sys/resource.h>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "echo.hh"

namespace {

// Log-linear histogram: exact below 256 ns, then 128 linear sub-buckets per power of two
// (relative error under 0.8%), up to 2^48 ns.
class LogLinearHistogram {
 public:
  static const int kSubBits = 7;
  static const int kSub = 1 << kSubBits;          // 128
  static const int kLinear = 2 * kSub;            // 256 exact values
  static const int kOctaves = 41;
  static const int kBuckets = kLinear + kOctaves * kSub;

  LogLinearHistogram() : counts_(kBuckets, 0) {}

  static int IndexOf(uint64_t v) {
    if (v < (uint64_t)kLinear) return (int)v;
    int msb = 63 - __builtin_clzll(v);
    int shift = msb - kSubBits;                    // >= 1
    int idx = kLinear + (shift - 1) * kSub + (int)((v >> shift) - kSub);
    return idx < kBuckets ? idx : kBuckets - 1;
  }
  static uint64_t LowerOf(int idx) {
    if (idx < kLinear) return (uint64_t)idx;
    int shift = (idx - kLinear) / kSub + 1;
    return ((uint64_t)((idx - kLinear) % kSub + kSub)) << shift;
  }
  static uint64_t MidOf(int idx) {
    if (idx < kLinear) return (uint64_t)idx;
    int shift = (idx - kLinear) / kSub + 1;
    return LowerOf(idx) + (((uint64_t)1 << shift) >> 1);
  }

  void Record(uint64_t v) { counts_[IndexOf(v)]++; total_++; }
  void Add(const LogLinearHistogram& o) {
    for (int i = 0; i < kBuckets; i++) counts_[i] += o.counts_[i];
    total_ += o.total_;
  }
  uint64_t Total() const { return total_; }
  uint64_t Percentile(double p) const {
    if (total_ == 0) return 0;
    uint64_t rank = (uint64_t)(p / 100.0 * (double)total_ + 0.5);
    if (rank < 1) rank = 1;
    uint64_t seen = 0;
    for (int i = 0; i < kBuckets; i++) {
      seen += counts_[i];
      if (seen >= rank) return MidOf(i);
    }
    return MidOf(kBuckets - 1);
  }
  uint64_t Max() const {
    for (int i = kBuckets - 1; i >= 0; i--)
      if (counts_[i]) return MidOf(i);
    return 0;
  }
  std::string Encode() const {
    std::ostringstream out;
    bool first = true;
    for (int i = 0; i < kBuckets; i++) {
      if (!counts_[i]) continue;
      if (!first) out << ',';
      out << MidOf(i) << ':' << counts_[i];
      first = false;
    }
    return out.str();
  }

 private:
  std::vector<uint64_t> counts_;
  uint64_t total_ = 0;
};

enum Phase { kRamp = 0, kWarmup = 1, kMeasure = 2, kStop = 3 };

struct Shared {
  irmibench::Echo_var echo;
  std::atomic<int> phase{kRamp};
  std::atomic<int> connected{0};
  std::atomic<int> finished{0};
  std::atomic<uint64_t> errors{0};
  std::atomic<uint64_t> mismatches{0};
  size_t payload = 0;
};

struct PerThread {
  LogLinearHistogram histogram;
  uint64_t calls = 0;
};

uint64_t NowNanos() {
  return (uint64_t)std::chrono::duration_cast<std::chrono::nanoseconds>(
             std::chrono::steady_clock::now().time_since_epoch()).count();
}

void Caller(Shared* shared, PerThread* mine, int id) {
  irmibench::Bytes data;
  data.length((CORBA::ULong)shared->payload);
  for (size_t i = 0; i < shared->payload; i++) data[(CORBA::ULong)i] = (CORBA::Octet)(i * 31 + id);
  bool first = true;
  int consecutive_errors = 0;
  while (true) {
    int phase = shared->phase.load(std::memory_order_relaxed);
    if (phase == kStop) break;
    uint64_t start = NowNanos();
    try {
      irmibench::Bytes_var reply = shared->echo->echoBytes(data);
      uint64_t end = NowNanos();
      consecutive_errors = 0;
      if (reply->length() != data.length() ||
          (shared->payload > 0 && reply[reply->length() - 1] != data[data.length() - 1])) {
        shared->mismatches++;
      }
      if (first) {
        first = false;
        shared->connected++;
      }
      if (phase == kMeasure && shared->phase.load(std::memory_order_relaxed) == kMeasure) {
        mine->histogram.Record(end - start);
        mine->calls++;
      }
    } catch (const CORBA::Exception& e) {
      shared->errors++;
      // A failing server must not turn this loop into a busy spin; back off a little.
      if (++consecutive_errors > 3) std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
  }
  shared->finished++;
}

bool ReadFile(const std::string& path, std::string* out) {
  std::ifstream in(path);
  if (!in) return false;
  std::getline(in, *out);
  return !out->empty();
}

int Usage(const char* msg) {
  std::cerr << "echo_load_client: " << msg << "\n"
            << "usage: echo_load_client -ior-file F -connections N -payload BYTES"
               " -warmup-ms W -duration-ms D [-ramp-timeout-ms R] [-hold-until-eof] [-ORB...]\n";
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  // 10,000 connections need more than the usual soft limit of 1,024 open files: take the hard one.
  struct rlimit nofile;
  if (getrlimit(RLIMIT_NOFILE, &nofile) == 0 && nofile.rlim_cur < nofile.rlim_max) {
    nofile.rlim_cur = nofile.rlim_max;
    setrlimit(RLIMIT_NOFILE, &nofile);
  }
  std::string ior_file;
  long connections = 0, payload = -1, warmup_ms = -1, duration_ms = 0, ramp_timeout_ms = 60000;
  bool hold_until_eof = false;
  std::vector<char*> orb_args;
  orb_args.push_back(argv[0]);
  // A call that gets no reply must not hang the run: it fails after 30 s (the caller's own -ORB
  // options come later and win).
  char opt_timeout[] = "-ORBclientCallTimeOutPeriod";
  char timeout_ms[] = "30000";
  orb_args.push_back(opt_timeout);
  orb_args.push_back(timeout_ms);
  for (int i = 1; i < argc; i++) {
    std::string a = argv[i];
    bool has_value = i + 1 < argc;
    if (a == "-ior-file" && has_value) ior_file = argv[++i];
    else if (a == "-connections" && has_value) connections = std::atol(argv[++i]);
    else if (a == "-payload" && has_value) payload = std::atol(argv[++i]);
    else if (a == "-warmup-ms" && has_value) warmup_ms = std::atol(argv[++i]);
    else if (a == "-duration-ms" && has_value) duration_ms = std::atol(argv[++i]);
    else if (a == "-ramp-timeout-ms" && has_value) ramp_timeout_ms = std::atol(argv[++i]);
    else if (a == "-hold-until-eof") hold_until_eof = true;
    else if (a.rfind("-ORB", 0) == 0) {
      orb_args.push_back(argv[i]);
      if (has_value) orb_args.push_back(argv[++i]);
    } else return Usage(("unknown or incomplete argument " + a).c_str());
  }
  if (ior_file.empty()) return Usage("-ior-file is required");
  if (connections < 1 || connections > 20000) return Usage("-connections must be in 1..20000");
  if (payload < 0 || payload > 64 * 1024 * 1024) return Usage("-payload must be in 0..67108864");
  if (warmup_ms < 0) return Usage("-warmup-ms must be >= 0");
  if (duration_ms < 1) return Usage("-duration-ms must be >= 1");

  std::string max_conn = std::to_string(connections);
  char opt_max[] = "-ORBmaxGIOPConnectionPerServer";
  orb_args.push_back(opt_max);
  orb_args.push_back(const_cast<char*>(max_conn.c_str()));
  // Two-way calls each need a connection of their own, so N callers open N connections.
  char opt_one[] = "-ORBoneCallPerConnection";
  char one[] = "1";
  orb_args.push_back(opt_one);
  orb_args.push_back(one);
  int orb_argc = (int)orb_args.size();
  orb_args.push_back(nullptr);

  std::string ior;
  if (!ReadFile(ior_file, &ior)) {
    std::cerr << "echo_load_client: cannot read an IOR from " << ior_file << "\n";
    return 2;
  }

  CORBA::ORB_var orb = CORBA::ORB_init(orb_argc, orb_args.data());
  Shared shared;
  shared.payload = (size_t)payload;
  try {
    CORBA::Object_var obj = orb->string_to_object(ior.c_str());
    shared.echo = irmibench::Echo::_narrow(obj);
    if (CORBA::is_nil(shared.echo)) {
      std::cerr << "echo_load_client: the IOR is not an irmibench::Echo\n";
      return 3;
    }
    shared.echo->ping();
  } catch (const CORBA::Exception& e) {
    std::cerr << "echo_load_client: cannot reach the server: " << e._name() << "\n";
    return 3;
  }

  std::vector<PerThread*> per_thread;
  std::vector<std::thread> threads;
  uint64_t ramp_start = NowNanos();
  for (long i = 0; i < connections; i++) {
    per_thread.push_back(new PerThread());
    threads.emplace_back(Caller, &shared, per_thread.back(), (int)i);
  }
  while (shared.connected.load() < connections &&
         NowNanos() - ramp_start < (uint64_t)ramp_timeout_ms * 1000000ull) {
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  uint64_t ramp_ms = (NowNanos() - ramp_start) / 1000000ull;
  int connected = shared.connected.load();

  shared.phase = kWarmup;
  std::this_thread::sleep_for(std::chrono::milliseconds(warmup_ms));
  uint64_t errors_before = shared.errors.load();
  // Phase marks, so that whoever runs this can read the server's CPU time at both ends.
  std::cout << "ECHO-MEASURE start" << std::endl;
  shared.phase = kMeasure;
  uint64_t measure_start = NowNanos();
  std::this_thread::sleep_for(std::chrono::milliseconds(duration_ms));
  shared.phase = kStop;
  uint64_t measure_end = NowNanos();
  std::cout << "ECHO-MEASURE end" << std::endl;
  // Callers finish their current call and stop. One whose call never returns is counted as stuck
  // and left behind: the run still reports, then exits without waiting for it.
  uint64_t join_deadline = NowNanos() + 10ull * 1000000000ull;
  while (shared.finished.load() < connections && NowNanos() < join_deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  int stuck = (int)(connections - shared.finished.load());
  // Calls that raised from the start of the measurement until every caller stopped (a call that
  // times out after the end still counts), and over the whole run including ramp and warm-up.
  uint64_t errors_all = shared.errors.load();
  uint64_t errors = errors_all - errors_before;
  if (stuck == 0) {
    for (auto& t : threads) t.join();
  } else {
    for (auto& t : threads) t.detach();
  }

  LogLinearHistogram all;
  uint64_t calls = 0;
  for (PerThread* p : per_thread) {
    all.Add(p->histogram);
    calls += p->calls;
  }
  double seconds = (double)(measure_end - measure_start) / 1e9;
  char line[1024];
  std::snprintf(line, sizeof line,
                "ECHO-LOAD connections=%ld connected=%d payload=%ld seconds=%.3f calls=%llu"
                " errors=%llu mismatches=%llu calls_per_sec=%.1f p50_us=%.1f p90_us=%.1f"
                " p99_us=%.1f p999_us=%.1f max_us=%.1f ramp_ms=%llu stuck=%d errors_all=%llu",
                connections, connected, payload, seconds, (unsigned long long)calls,
                (unsigned long long)errors, (unsigned long long)shared.mismatches.load(),
                calls / seconds, all.Percentile(50) / 1e3, all.Percentile(90) / 1e3,
                all.Percentile(99) / 1e3, all.Percentile(99.9) / 1e3, all.Max() / 1e3,
                (unsigned long long)ramp_ms, stuck, (unsigned long long)errors_all);
  std::cout << line << "\n";
  std::cout << "ECHO-HIST " << all.Encode() << "\n";
  std::cout.flush();
  if (hold_until_eof) {
    char buf[256];
    while (std::fread(buf, 1, sizeof buf, stdin) > 0) {
    }
  }
  if (stuck > 0) {
    std::cerr << "echo_load_client: " << stuck << " callers still wait for a reply; exiting without them\n";
    std::_Exit(0);
  }
  for (PerThread* p : per_thread) delete p;
  try {
    orb->destroy();
  } catch (...) {
  }
  return 0;
}
