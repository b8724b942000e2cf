// The echo benchmark's cheapest load client: every connection on one thread, epoll, non-blocking
// sockets, and GIOP 1.2 spoken directly (no ORB). It makes the same calls as NioLoadClient
// (irmibench::Echo::echoBytes(in Bytes), the first request of each connection with the CodeSets
// service context), takes the same options and prints the same lines, so that
// `EchoBenchmark --client epoll` runs it in their place.
//
// Why it exists: at 1,000 connections the Java NIO client costs about 20 us of CPU per call, which on
// 2 cores caps what any server can be measured at. This one costs a read and a write per call.
//
// Usage: echo_epoll_client -ior-file F -connections N -payload B -warmup-ms W -duration-ms D
//        [-ramp-timeout-ms R] [-hold-until-eof]
// Output: "ECHO-MEASURE start", "ECHO-MEASURE end", then an ECHO-LOAD line and an ECHO-HIST line
// (nanoseconds, each recorded value with its count). A reply counts as an error when it is not a
// GIOP 1.2 Reply, its request id differs, its status is not NO_EXCEPTION, or its body is not the
// payload sent. `errors` counts the measured calls that failed and the replies missing after the
// drain; `errors_all` adds the ramp's failed connects and calls.

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <fstream>
#include <map>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

namespace {

constexpr size_t kGiopHeader = 12;
constexpr uint32_t kMaxMessage = 1u << 20;
constexpr uint32_t kCodeSetsContext = 1;
constexpr uint32_t kIso88591 = 0x00010001;
constexpr uint32_t kUtf16 = 0x00010109;
constexpr int kConnectsInFlight = 128;

int64_t now_ns() {
    timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return int64_t(ts.tv_sec) * 1000000000 + ts.tv_nsec;
}

// ---- the IOR: host, port and object key of its first IIOP profile ----

struct Cdr {
    const std::vector<uint8_t>& b;
    size_t pos;
    bool little;
    Cdr(const std::vector<uint8_t>& bytes) : b(bytes), pos(0), little(false) {
        if (b.empty()) throw std::runtime_error("empty encapsulation");
        little = b[pos++] != 0;
    }
    void need(size_t n) {
        if (n > b.size() || pos > b.size() - n) throw std::runtime_error("encapsulation ends early");
    }
    void align(size_t to) { pos = (pos + to - 1) / to * to; }
    uint32_t ulong() {
        align(4);
        need(4);
        uint32_t v = little ? (b[pos] | b[pos + 1] << 8 | b[pos + 2] << 16 | uint32_t(b[pos + 3]) << 24)
                            : (uint32_t(b[pos]) << 24 | b[pos + 1] << 16 | b[pos + 2] << 8 | b[pos + 3]);
        pos += 4;
        return v;
    }
    uint16_t ushort() {
        align(2);
        need(2);
        uint16_t v = little ? (b[pos] | b[pos + 1] << 8) : (b[pos] << 8 | b[pos + 1]);
        pos += 2;
        return v;
    }
    std::vector<uint8_t> octets() {
        uint32_t n = ulong();
        need(n);  // checked against the bytes there before anything is allocated
        std::vector<uint8_t> out(b.begin() + pos, b.begin() + pos + n);
        pos += n;
        return out;
    }
    std::string string() {
        std::vector<uint8_t> s = octets();
        if (!s.empty() && s.back() == 0) s.pop_back();
        return std::string(s.begin(), s.end());
    }
};

struct Ior {
    std::string host;
    uint16_t port = 0;
    std::vector<uint8_t> key;
};

Ior parse_ior(const std::string& text) {
    size_t start = text.find_first_not_of(" \t\r\n");
    size_t end = text.find_last_not_of(" \t\r\n");
    if (start == std::string::npos || end - start + 1 < 4 || strncasecmp(text.c_str() + start, "IOR:", 4) != 0) {
        throw std::runtime_error("not a stringified IOR (must start with IOR:)");
    }
    std::string hex = text.substr(start + 4, end - start - 3);
    if (hex.size() % 2 != 0) throw std::runtime_error("IOR has an odd number of hex digits");
    std::vector<uint8_t> bytes(hex.size() / 2);
    for (size_t i = 0; i < bytes.size(); i++) {
        char pair[3] = {hex[2 * i], hex[2 * i + 1], 0};
        char* stop = nullptr;
        long v = strtol(pair, &stop, 16);
        if (*stop != 0) throw std::runtime_error("IOR is not valid hex");
        bytes[i] = uint8_t(v);
    }
    Cdr ior(bytes);
    ior.string();  // type id
    uint32_t profiles = ior.ulong();
    for (uint32_t i = 0; i < profiles; i++) {
        uint32_t tag = ior.ulong();
        std::vector<uint8_t> data = ior.octets();
        if (tag != 0) continue;  // TAG_INTERNET_IOP
        Cdr body(data);
        body.need(2);
        body.pos += 2;  // IIOP version
        Ior out;
        out.host = body.string();
        out.port = body.ushort();
        out.key = body.octets();
        return out;
    }
    throw std::runtime_error("IOR has no IIOP profile");
}

// ---- GIOP ----

void put_ulong(std::vector<uint8_t>& b, uint32_t v) {
    while (b.size() % 4) b.push_back(0);
    b.push_back(v >> 24);
    b.push_back(v >> 16);
    b.push_back(v >> 8);
    b.push_back(v);
}

void set_ulong(std::vector<uint8_t>& b, size_t at, uint32_t v) {
    b[at] = v >> 24;
    b[at + 1] = v >> 16;
    b[at + 2] = v >> 8;
    b[at + 3] = v;
}

uint32_t get_ulong(const uint8_t* p, bool little) {
    return little ? (p[0] | p[1] << 8 | p[2] << 16 | uint32_t(p[3]) << 24)
                  : (uint32_t(p[0]) << 24 | p[1] << 16 | p[2] << 8 | p[3]);
}

// A GIOP 1.2 Request, big-endian: echoBytes(payload) on key, a reply expected; with code_sets, the
// CodeSets service context (ISO 8859-1 for char, UTF-16 for wchar). The request id is at offset 12.
std::vector<uint8_t> request(const std::vector<uint8_t>& key, const std::vector<uint8_t>& payload, bool code_sets) {
    static const char kOperation[] = "echoBytes";
    std::vector<uint8_t> b = {'G', 'I', 'O', 'P', 1, 2, 0, 0, 0, 0, 0, 0};
    put_ulong(b, 0);                         // request id, set per call
    b.insert(b.end(), {3, 0, 0, 0});         // response_flags SYNC_WITH_TARGET, reserved
    b.insert(b.end(), {0, 0});               // TargetAddress: KeyAddr
    put_ulong(b, uint32_t(key.size()));
    b.insert(b.end(), key.begin(), key.end());
    put_ulong(b, sizeof kOperation);
    b.insert(b.end(), kOperation, kOperation + sizeof kOperation);
    if (code_sets) {
        put_ulong(b, 1);
        put_ulong(b, kCodeSetsContext);
        put_ulong(b, 12);
        b.insert(b.end(), {0, 0, 0, 0});
        put_ulong(b, kIso88591);
        put_ulong(b, kUtf16);
    } else {
        put_ulong(b, 0);
    }
    while (b.size() % 8) b.push_back(0);  // GIOP 1.2: the body starts 8-aligned
    put_ulong(b, uint32_t(payload.size()));
    b.insert(b.end(), payload.begin(), payload.end());
    set_ulong(b, 8, uint32_t(b.size() - kGiopHeader));
    return b;
}

// ---- latencies: 3 significant digits, as an HdrHistogram(3) holds them ----

class Histogram {
public:
    void record(int64_t ns) {
        if (ns < 1) ns = 1;
        uint64_t v = uint64_t(ns);
        int shift = 0;
        while ((v >> shift) >= 2048) shift++;
        counts_[(uint64_t(shift) << 11) | (v >> shift)]++;
        total_++;
    }
    uint64_t total() const { return total_; }
    // The value at the percentile: the middle of its bucket.
    double percentile(double q) const {
        if (total_ == 0) return 0;
        uint64_t rank = uint64_t(q / 100.0 * double(total_) + 0.5);
        if (rank < 1) rank = 1;
        uint64_t seen = 0;
        for (const auto& [k, n] : counts_) {
            seen += n;
            if (seen >= rank) return double(middle(k));
        }
        return double(middle(counts_.rbegin()->first));
    }
    std::string encode() const {
        std::ostringstream out;
        bool first = true;
        for (const auto& [k, n] : counts_) {
            out << (first ? "" : ",") << middle(k) << ':' << n;
            first = false;
        }
        return out.str();
    }

private:
    static uint64_t middle(uint64_t k) {
        int shift = int(k >> 11);
        uint64_t low = (k & 2047) << shift;
        return low + ((uint64_t(1) << shift) >> 1);
    }
    std::map<uint64_t, uint64_t> counts_;
    uint64_t total_ = 0;
};

// ---- connections ----

struct Conn {
    int fd = -1;
    bool connecting = false;
    bool awaiting = false;
    bool open = false;
    int64_t connect_started = 0;
    int64_t sent_at = 0;
    uint32_t next_id = 1;
    uint32_t expected_id = 0;
    std::vector<uint8_t> out;   // the request being written
    size_t out_pos = 0;
    std::vector<uint8_t> in;    // bytes read and not yet consumed
};

struct Counters {
    uint64_t calls = 0;
    uint64_t errors = 0;
    std::vector<std::string> first_errors;
    // Keeps the first few reasons.
    void note(const std::string& why) {
        if (first_errors.size() < 5) first_errors.push_back(why);
    }
    // A call that failed.
    void fail(const std::string& why) {
        errors++;
        note(why);
    }
};

class Client {
public:
    Client(const Ior& ior, size_t payload_size) : ior_(ior) {
        payload_.resize(payload_size);
        for (size_t i = 0; i < payload_size; i++) payload_[i] = uint8_t(i * 31 + 7);
        first_request_ = request(ior.key, payload_, true);
        request_ = request(ior.key, payload_, false);
        epoll_ = epoll_create1(EPOLL_CLOEXEC);
        if (epoll_ < 0) throw std::runtime_error(std::string("epoll_create1: ") + strerror(errno));
        addrinfo hints{};
        hints.ai_family = AF_UNSPEC;
        hints.ai_socktype = SOCK_STREAM;
        addrinfo* res = nullptr;
        std::string port = std::to_string(ior.port);
        int rc = getaddrinfo(ior.host.c_str(), port.c_str(), &hints, &res);
        if (rc != 0 || res == nullptr) throw std::runtime_error("cannot resolve " + ior.host + ": " + gai_strerror(rc));
        memcpy(&addr_, res->ai_addr, res->ai_addrlen);
        addr_len_ = res->ai_addrlen;
        family_ = res->ai_family;
        freeaddrinfo(res);
    }

    ~Client() {
        for (Conn& c : conns_) {
            if (c.fd >= 0) close(c.fd);
        }
        close(epoll_);
    }

    size_t open_count() const { return open_; }

    // Opens n connections, at most kConnectsInFlight connecting at once, and makes one call on each.
    // Returns the connects that failed.
    uint64_t ramp(int n, int64_t connect_timeout_ns, int64_t deadline_ns, Counters& k) {
        conns_.resize(size_t(n));
        int64_t end = now_ns() + deadline_ns;
        int started = 0, pending_connects = 0, pending_replies = 0;
        uint64_t connect_failures = 0;
        counters_ = &k;
        again_ = false;
        while ((started < n || pending_connects > 0 || pending_replies > 0) && now_ns() < end) {
            while (started < n && pending_connects < kConnectsInFlight) {
                Conn& c = conns_[size_t(started++)];
                c.fd = socket(family_, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
                if (c.fd < 0) {
                    connect_failures++;
                    k.note(std::string("socket: ") + strerror(errno));
                    continue;
                }
                int one = 1;
                setsockopt(c.fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
                c.connect_started = now_ns();
                epoll_event ev{};
                ev.events = EPOLLOUT;
                ev.data.u32 = uint32_t(&c - conns_.data());
                if (connect(c.fd, reinterpret_cast<sockaddr*>(&addr_), addr_len_) != 0 && errno != EINPROGRESS) {
                    connect_failures++;
                    k.note(std::string("connect: ") + strerror(errno));
                    close(c.fd);
                    c.fd = -1;
                    continue;
                }
                c.connecting = true;
                epoll_ctl(epoll_, EPOLL_CTL_ADD, c.fd, &ev);
                pending_connects++;
            }
            epoll_event evs[512];
            int ready = epoll_wait(epoll_, evs, 512, 20);
            for (int i = 0; i < ready; i++) {
                Conn& c = conns_[evs[i].data.u32];
                if (c.connecting) {
                    pending_connects--;
                    c.connecting = false;
                    int err = 0;
                    socklen_t len = sizeof err;
                    getsockopt(c.fd, SOL_SOCKET, SO_ERROR, &err, &len);
                    if (err != 0) {
                        connect_failures++;
                        k.note(std::string("connect: ") + strerror(err));
                        close(c.fd);
                        c.fd = -1;
                        continue;
                    }
                    c.open = true;
                    open_++;
                    watch(c, EPOLLIN);
                    if (send(c)) pending_replies++;
                } else if (c.open) {
                    pending_replies -= handle(c, evs[i].events);
                }
            }
            int64_t now = now_ns();
            for (Conn& c : conns_) {
                if (c.connecting && now - c.connect_started > connect_timeout_ns) {
                    c.connecting = false;
                    pending_connects--;
                    connect_failures++;
                    k.note("connect timed out after " + std::to_string(connect_timeout_ns / 1000000) + " ms");
                    close(c.fd);
                    c.fd = -1;
                }
            }
        }
        connect_failures += uint64_t(n - started + pending_connects);
        for (Conn& c : conns_) {
            if (c.connecting) {
                close(c.fd);
                c.fd = -1;
                c.connecting = false;
            }
        }
        if (pending_replies > 0) {
            k.note(std::to_string(pending_replies) + " replies missing at the ramp's deadline");
            k.errors += uint64_t(pending_replies);
            for (Conn& c : conns_) {
                if (c.open && c.awaiting) drop(c);
            }
        }
        return connect_failures;
    }

    // Every open connection calls, and calls again as soon as its reply arrives. Only calls that end
    // between the measurement's marks count; their latencies go to h.
    void closed_loop(int64_t warmup_ns, int64_t measure_ns, int64_t drain_ns, Counters& warm, Counters& k,
                     Histogram& h, double& seconds) {
        counters_ = &warm;
        histogram_ = nullptr;
        again_ = true;
        for (Conn& c : conns_) {
            if (c.open) send(c);
        }
        int64_t warm_end = now_ns() + warmup_ns;
        while (now_ns() < warm_end && open_ > 0) turn();
        counters_ = &k;
        histogram_ = &h;
        printf("ECHO-MEASURE start\n");
        fflush(stdout);
        int64_t start = now_ns();
        int64_t end = start + measure_ns;
        while (now_ns() < end && open_ > 0) turn();
        seconds = double(now_ns() - start) / 1e9;
        printf("ECHO-MEASURE end\n");
        fflush(stdout);
        // Drain: the last calls end so the connections are idle again; they do not count as calls.
        uint64_t measured_calls = k.calls;
        Counters drained;
        counters_ = &drained;
        histogram_ = nullptr;
        again_ = false;
        int64_t drain_end = now_ns() + drain_ns;
        while (now_ns() < drain_end && awaiting_any()) turn();
        uint64_t lost = 0;
        for (Conn& c : conns_) {
            if (c.open && c.awaiting) {
                lost++;
                drop(c);
            }
        }
        k.errors += drained.errors + lost;
        if (lost > 0) k.note(std::to_string(lost) + " replies missing after the closed loop's drain");
        k.calls = measured_calls;
    }

private:
    bool awaiting_any() const {
        for (const Conn& c : conns_) {
            if (c.open && c.awaiting) return true;
        }
        return false;
    }

    void turn() {
        epoll_event evs[512];
        int ready = epoll_wait(epoll_, evs, 512, 10);
        for (int i = 0; i < ready; i++) {
            Conn& c = conns_[evs[i].data.u32];
            if (c.open) handle(c, evs[i].events);
        }
    }

    void watch(Conn& c, uint32_t events) {
        epoll_event ev{};
        ev.events = events;
        ev.data.u32 = uint32_t(&c - conns_.data());
        epoll_ctl(epoll_, EPOLL_CTL_MOD, c.fd, &ev);
    }

    // Sends the next echoBytes request on c. False when the connection broke.
    bool send(Conn& c) {
        uint32_t id = c.next_id++;
        c.expected_id = id;
        c.out = id == 1 ? first_request_ : request_;
        set_ulong(c.out, 12, id);
        c.out_pos = 0;
        c.awaiting = true;
        c.sent_at = now_ns();
        return flush(c);
    }

    bool flush(Conn& c) {
        while (c.out_pos < c.out.size()) {
            ssize_t w = write(c.fd, c.out.data() + c.out_pos, c.out.size() - c.out_pos);
            if (w > 0) {
                c.out_pos += size_t(w);
            } else if (w < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
                watch(c, EPOLLIN | EPOLLOUT);
                return true;
            } else if (w < 0 && errno == EINTR) {
                continue;
            } else {
                counters_->fail(std::string("write: ") + strerror(errno));
                drop(c);
                return false;
            }
        }
        return true;
    }

    // Reads and writes what c is ready for. Returns the calls that ended on it (well or not).
    int handle(Conn& c, uint32_t events) {
        if (events & EPOLLOUT) {
            if (!flush(c)) return 1;
            if (c.out_pos == c.out.size()) watch(c, EPOLLIN);
        }
        if (!(events & (EPOLLIN | EPOLLERR | EPOLLHUP))) return 0;
        uint8_t buf[65536];
        ssize_t r = read(c.fd, buf, sizeof buf);
        if (r < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR)) return 0;
        if (r <= 0) {
            bool was = c.awaiting;
            counters_->fail(r == 0 ? (was ? "connection closed by the server before the reply"
                                          : "connection closed by the server while idle")
                                   : std::string("read: ") + strerror(errno));
            drop(c);
            return was ? 1 : 0;
        }
        // Usually the read holds whole replies: parse them where they are, and keep only what is left.
        const uint8_t* data = buf;
        size_t len = size_t(r);
        if (!c.in.empty()) {
            c.in.insert(c.in.end(), buf, buf + r);
            data = c.in.data();
            len = c.in.size();
        }
        int ended = 0;
        size_t at = 0;
        while (len - at >= kGiopHeader) {
            const uint8_t* m = data + at;
            bool little = (m[6] & 1) != 0;
            uint32_t size = get_ulong(m + 8, little);
            if (memcmp(m, "GIOP", 4) != 0 || size > kMaxMessage) {
                bool was = c.awaiting;
                counters_->fail("not a GIOP message (or size " + std::to_string(size) + ")");
                drop(c);
                return ended + (was ? 1 : 0);
            }
            if (len - at < kGiopHeader + size) break;
            std::string error = check_reply(c, m, kGiopHeader + size, little);
            at += kGiopHeader + size;
            if (c.awaiting) ended++;  // a reply nobody waited for ends no call
            if (!error.empty()) {
                counters_->fail(error);
                drop(c);
                return ended;
            }
            int64_t ns = now_ns() - c.sent_at;
            c.awaiting = false;
            counters_->calls++;
            if (histogram_ != nullptr) histogram_->record(ns);
            if (again_ && !send(c)) return ended;
        }
        if (data == buf) {
            c.in.assign(buf + at, buf + len);
        } else {
            c.in.erase(c.in.begin(), c.in.begin() + long(at));
        }
        return ended;
    }

    // Empty when m (one whole message of len bytes) is the good reply to c's call.
    std::string check_reply(const Conn& c, const uint8_t* m, size_t len, bool little) {
        if (m[4] != 1 || m[5] != 2) return "GIOP version " + std::to_string(m[4]) + "." + std::to_string(m[5]) + ", not 1.2";
        if (m[7] != 1) return "GIOP message type " + std::to_string(m[7]) + ", not Reply (1)";
        if (!c.awaiting) return "a reply with no call outstanding";
        size_t pos = kGiopHeader;
        auto ulong = [&](uint32_t& v) {
            pos = (pos + 3) / 4 * 4;
            if (pos + 4 > len) return false;
            v = get_ulong(m + pos, little);
            pos += 4;
            return true;
        };
        uint32_t id, status, contexts;
        if (!ulong(id) || !ulong(status) || !ulong(contexts)) return "reply header ends early";
        if (id != c.expected_id) return "reply to request " + std::to_string(id) + ", expected " + std::to_string(c.expected_id);
        for (uint32_t i = 0; i < contexts; i++) {
            uint32_t ctx, ctx_len;
            if (!ulong(ctx) || !ulong(ctx_len) || ctx_len > len - pos) return "reply service context ends early";
            pos += ctx_len;
        }
        pos = (pos + 7) / 8 * 8;
        if (status != 0) return "reply status " + std::to_string(status) + ", not NO_EXCEPTION";
        uint32_t n;
        if (!ulong(n)) return "reply body ends early";
        if (n != payload_.size()) return "reply of " + std::to_string(n) + " octets, sent " + std::to_string(payload_.size());
        if (n > len - pos) return "reply body ends early";
        if (memcmp(m + pos, payload_.data(), n) != 0) return "reply octets differ from those sent";
        return "";
    }

    void drop(Conn& c) {
        if (c.open) open_--;
        c.open = false;
        c.awaiting = false;
        if (c.fd >= 0) {
            epoll_ctl(epoll_, EPOLL_CTL_DEL, c.fd, nullptr);
            close(c.fd);
            c.fd = -1;
        }
    }

    Ior ior_;
    std::vector<uint8_t> payload_;
    std::vector<uint8_t> first_request_;
    std::vector<uint8_t> request_;
    std::vector<Conn> conns_;
    size_t open_ = 0;
    int epoll_ = -1;
    sockaddr_storage addr_{};
    socklen_t addr_len_ = 0;
    int family_ = AF_INET;
    Counters* counters_ = nullptr;
    Histogram* histogram_ = nullptr;
    bool again_ = false;
};

long long number(const char* option, const char* value) {
    char* end = nullptr;
    errno = 0;
    long long v = strtoll(value, &end, 10);
    if (errno != 0 || end == value || *end != 0 || v < 0) {
        fprintf(stderr, "echo-epoll-client: %s: '%s' is not a non-negative number\n", option, value);
        exit(2);
    }
    return v;
}

}  // namespace

int main(int argc, char** argv) {
    const char* ior_file = nullptr;
    long long connections = 1, payload = 100, warmup_ms = 1000, duration_ms = 3000, ramp_timeout_ms = 30000;
    bool hold_until_eof = false;
    for (int i = 1; i < argc; i++) {
        std::string a = argv[i];
        if (a == "-hold-until-eof") {
            hold_until_eof = true;
            continue;
        }
        if (a.rfind("-ORB", 0) == 0) {  // an omniORB option and its value: nothing to do here
            i++;
            continue;
        }
        if (i + 1 >= argc) {
            fprintf(stderr, "echo-epoll-client: missing value for %s\n", a.c_str());
            return 2;
        }
        const char* v = argv[++i];
        if (a == "-ior-file") ior_file = v;
        else if (a == "-connections") connections = number(a.c_str(), v);
        else if (a == "-payload") payload = number(a.c_str(), v);
        else if (a == "-warmup-ms") warmup_ms = number(a.c_str(), v);
        else if (a == "-duration-ms") duration_ms = number(a.c_str(), v);
        else if (a == "-ramp-timeout-ms") ramp_timeout_ms = number(a.c_str(), v);
        else {
            fprintf(stderr, "echo-epoll-client: unknown option %s\n", a.c_str());
            return 2;
        }
    }
    if (ior_file == nullptr) {
        fprintf(stderr, "echo-epoll-client: -ior-file is required\n");
        return 2;
    }
    if (connections < 1 || connections > 1000000 || payload > (1 << 20) - 256) {
        fprintf(stderr, "echo-epoll-client: -connections must be 1 to 1000000 and -payload at most %d\n", (1 << 20) - 256);
        return 2;
    }
    std::ifstream in(ior_file);
    if (!in) {
        fprintf(stderr, "echo-epoll-client: cannot read an IOR from %s\n", ior_file);
        return 1;
    }
    std::stringstream text;
    text << in.rdbuf();
    try {
        Ior ior = parse_ior(text.str());
        Client client(ior, size_t(payload));
        Counters ramp, warm, loop;
        Histogram h;
        int64_t ramp_start = now_ns();
        uint64_t connect_failures = client.ramp(int(connections), 10'000'000'000LL, ramp_timeout_ms * 1000000, ramp);
        long long ramp_ms = (now_ns() - ramp_start) / 1000000;
        size_t connected = client.open_count();
        double seconds = 0;
        client.closed_loop(warmup_ms * 1000000, duration_ms * 1000000, 10'000'000'000LL, warm, loop, h, seconds);
        for (const std::string& e : ramp.first_errors) fprintf(stderr, "echo-epoll-client: ramp: %s\n", e.c_str());
        if (warm.errors > 0) fprintf(stderr, "echo-epoll-client: %llu calls failed in the warm-up\n", (unsigned long long) warm.errors);
        for (const std::string& e : warm.first_errors) fprintf(stderr, "echo-epoll-client: warm-up: %s\n", e.c_str());
        for (const std::string& e : loop.first_errors) fprintf(stderr, "echo-epoll-client: loop: %s\n", e.c_str());
        printf("ECHO-LOAD connections=%lld connected=%zu payload=%lld seconds=%.3f calls=%llu errors=%llu"
               " mismatches=0 calls_per_sec=%.1f p50_us=%.1f p99_us=%.1f ramp_ms=%lld stuck=0 errors_all=%llu\n",
               connections, connected, payload, seconds, (unsigned long long) loop.calls,
               (unsigned long long) loop.errors, seconds == 0 ? 0.0 : double(loop.calls) / seconds,
               h.percentile(50) / 1e3, h.percentile(99) / 1e3, ramp_ms,
               (unsigned long long) (loop.errors + warm.errors + ramp.errors + connect_failures));
        printf("ECHO-HIST %s\n", h.encode().c_str());
        fflush(stdout);
        if (hold_until_eof) {
            char buf[256];
            while (read(0, buf, sizeof buf) > 0) {
                // the connections stay open until whoever started this closes its stdin
            }
        }
    } catch (const std::exception& e) {
        fprintf(stderr, "echo-epoll-client: %s\n", e.what());
        return 1;
    }
    return 0;
}
